import { html, render } from 'htm/preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { EventsView } from './events-view.js';
import { NodePanel } from './node-panel.js';
import { OpenApiView } from './openapi-view.js';
import { send } from './restconf.js';
import { type ApiDocument, buildTree, type TreeNode } from './schema-tree.js';
import { TreeView } from './tree-view.js';
import './style.css';

type Tab = 'data' | 'operations' | 'events' | 'openapi';

function App() {
  const [doc, setDoc] = useState<ApiDocument | undefined>(undefined);
  const [problem, setProblem] = useState('');
  const [tab, setTab] = useState<Tab>('data');
  const [selected, setSelected] = useState<TreeNode | undefined>(undefined);
  const [params, setParams] = useState<Record<string, string>>({});

  useEffect(() => {
    void send('GET', '../openapi.json', { accept: 'application/json' }).then((a) => {
      if (a.status === 200) setDoc(JSON.parse(a.text) as ApiDocument);
      else setProblem(`The OpenAPI document did not load: ${a.status} ${a.statusText}`);
    });
  }, []);
  const tree = useMemo(() => (doc === undefined ? undefined : buildTree(doc)), [doc]);
  const modules = useMemo(
    () => [...new Set([...(tree?.data ?? []), ...(tree?.operations ?? [])].map((n) => n.yang.module))].sort(),
    [tree],
  );
  const root = doc?.servers?.[0]?.url ?? '/restconf';
  const tabs: [Tab, string][] = [
    ['data', 'Data'],
    ['operations', 'Operations'],
    ['events', 'Events'],
    ['openapi', 'OpenAPI'],
  ];
  const choose = (t: Tab): void => {
    setTab(t);
    setSelected(undefined);
  };
  const nodes = tab === 'operations' ? tree?.operations : tree?.data;
  return html`<div class="app">
    <header class="top">
      <h1>yangkit RESTCONF explorer</h1>
      <nav class="tabs" role="tablist">
        ${tabs.map(([t, label]) => html`<button role="tab" aria-selected=${tab === t} class=${tab === t ? 'on' : ''} onClick=${() => choose(t)}>${label}</button>`)}
      </nav>
      <span class="root">${root}</span>
    </header>
    ${problem === '' ? '' : html`<p class="problem">${problem}</p>`}
    ${
      tree === undefined
        ? html`<p class="loading">Loading the schema…</p>`
        : tab === 'events'
          ? html`<main><${EventsView} root=${root} /></main>`
          : tab === 'openapi'
            ? html`<main><${OpenApiView} modules=${modules} /></main>`
            : html`<main class="split">
                <${TreeView} nodes=${nodes ?? []} selected=${selected} onSelect=${setSelected} />
                ${
                  selected === undefined
                    ? html`<article class="panel hint"><p>Choose a node of the schema: its data, its entries, a form to edit it, or its input to invoke it.</p></article>`
                    : html`<${NodePanel} doc=${doc!} root=${root} node=${selected} params=${params} setParams=${setParams} />`
                }
              </main>`
    }
  </div>`;
}

render(html`<${App} />`, document.getElementById('app')!);
