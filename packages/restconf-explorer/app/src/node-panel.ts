import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { AnswerView } from './answer-view.js';
import { type Answer, dataMedia, type Encoding, send } from './restconf.js';
import {
  type ApiDocument,
  fillTemplate,
  inputSkeleton,
  jsonValue,
  leafSchema,
  type Schema,
  type TreeNode,
  treeLine,
} from './schema-tree.js';

interface PanelProps {
  readonly doc: ApiDocument;
  /** The RESTCONF root URL path, e.g. `/restconf`. */
  readonly root: string;
  readonly node: TreeNode;
  /** Path parameter values, shared by every node (the keys of the entries browsed to). */
  readonly params: Readonly<Record<string, string>>;
  readonly setParams: (params: Record<string, string>) => void;
}

type Obj = Record<string, unknown>;

/** The member value of a JSON resource body: `{"module:name": value}` -> value (an entry: the first). */
function memberValue(node: TreeNode, text: string): unknown {
  try {
    const body = JSON.parse(text) as Obj;
    const value = Object.values(body)[0];
    return node.yang.kind === 'list' && Array.isArray(value) ? value[0] : value;
  } catch {
    return undefined;
  }
}

/** The leaves of a container or entry a form edits: configuration, not keys, writable on their own. */
function formLeaves(node: TreeNode): TreeNode[] {
  if (node.yang.kind === 'leaf') return [node];
  return node.children.filter((c) => c.yang.kind === 'leaf' && c.methods.includes('PUT'));
}

/** A form field of one leaf: a choice for enumerations and booleans, else text. */
function Field(props: {
  leaf: TreeNode;
  schema: Schema | undefined;
  value: string;
  onInput: (v: string) => void;
}) {
  const { leaf, schema, value, onInput } = props;
  const choices = schema?.enum ?? (schema?.type === 'boolean' ? ['true', 'false'] : undefined);
  const label = `${leaf.yang.name}${leaf.yang.type === undefined ? '' : ` (${leaf.yang.type})`}`;
  const set = (e: Event) => onInput((e.target as HTMLInputElement).value);
  return html`<label class="field">
    <span>${label}</span>
    ${
      choices === undefined
        ? html`<input aria-label=${leaf.yang.name} value=${value} onInput=${set} />`
        : html`<select aria-label=${leaf.yang.name} value=${value} onChange=${set}>
            <option value=""></option>
            ${choices.map((c) => html`<option value=${String(c)}>${String(c)}</option>`)}
          </select>`
    }
  </label>`;
}

/** The panel of the selected node: read it, browse its entries, edit it, or invoke it. */
export function NodePanel({ doc, root, node, params, setParams }: PanelProps) {
  const [depth, setDepth] = useState('unbounded');
  const [content, setContent] = useState('all');
  const [encoding, setEncoding] = useState<Encoding>('json');
  const [read, setRead] = useState<Answer | undefined>(undefined);
  const [answer, setAnswer] = useState<Answer | undefined>(undefined);
  const [entries, setEntries] = useState<Obj[] | undefined>(undefined);
  const [mode, setMode] = useState<'form' | 'raw'>('form');
  const [raw, setRaw] = useState('');
  const [form, setForm] = useState<Record<string, string>>({});
  const isOperation = node.yang.kind === 'rpc' || node.yang.kind === 'action';
  const isList = node.listTemplate !== undefined;
  const listParams = isList
    ? node.params.slice(
        0,
        node.params.length - (node.yang.kind === 'leaf-list' ? 1 : (node.yang.keys?.length ?? 0)),
      )
    : [];
  const ready = (names: readonly string[]) => names.every((p) => (params[p] ?? '') !== '');
  const url = (template: string, query = '') => `${root}${fillTemplate(template, params)}${query}`;

  const readNode = async (): Promise<void> => {
    const query = new URLSearchParams();
    if (depth !== 'unbounded') query.set('depth', depth);
    if (content !== 'all') query.set('content', content);
    const q = query.size > 0 ? `?${query}` : '';
    const a = await send('GET', url(node.template, q), { accept: dataMedia(encoding) });
    setRead(a);
    setAnswer(undefined);
    if (a.status === 200) {
      setRaw(a.text);
      if (encoding === 'json') {
        const value = memberValue(node, a.text);
        const next: Record<string, string> = {};
        for (const leaf of formLeaves(node)) {
          const v = node.yang.kind === 'leaf' ? value : (value as Obj | undefined)?.[leaf.yang.name];
          next[leaf.yang.name] = v === undefined || typeof v === 'object' ? '' : String(v);
        }
        setForm(next);
      }
    }
  };

  const listEntries = async (): Promise<void> => {
    const a = await send('GET', url(node.listTemplate!, '?depth=2'), { accept: dataMedia('json') });
    setRead(a.status === 200 ? undefined : a);
    const value =
      a.status === 200 ? memberValue({ ...node, yang: { ...node.yang, kind: 'leaf' } }, a.text) : [];
    setEntries(Array.isArray(value) ? (value as Obj[]) : []);
  };

  useEffect(() => {
    setRead(undefined);
    setAnswer(undefined);
    setEntries(undefined);
    setForm({});
    setRaw(isOperation ? (inputSkeleton(doc, node) ?? '') : '');
    if (isOperation) return;
    if (isList && ready(listParams)) void listEntries();
    if (!isList && ready(node.params)) void readNode();
  }, [node]);

  const openEntry = (entry: Obj | string): void => {
    const names = node.params.slice(listParams.length);
    const values =
      node.yang.kind === 'leaf-list'
        ? [String(entry)]
        : (node.yang.keys ?? []).map((k) => String((entry as Obj)[k]));
    const next = { ...params };
    names.forEach((n, i) => {
      next[n] = values[i] ?? '';
    });
    setParams(next);
  };
  useEffect(() => {
    if (isList && ready(node.params)) void readNode();
  }, [params]);

  const edit = async (method: string, body: string | undefined, type?: string): Promise<void> => {
    const a = await send(method, url(node.template), {
      accept: dataMedia(encoding),
      ...(body === undefined ? {} : { body, contentType: type ?? dataMedia(encoding) }),
    });
    setAnswer(a);
    if (a.status < 300 && method !== 'DELETE') await readNode().then(() => setAnswer(a));
  };

  const saveForm = async (): Promise<void> => {
    const name = `${node.yang.module}:${node.yang.name}`;
    const values: Obj = {};
    for (const leaf of formLeaves(node)) {
      const text = form[leaf.yang.name] ?? '';
      if (text !== '' || node.yang.kind === 'leaf')
        values[leaf.yang.name] = jsonValue(leafSchema(doc, leaf), text);
    }
    let body: Obj;
    if (node.yang.kind === 'leaf') body = { [name]: values[node.yang.name] };
    else if (node.yang.kind === 'list') {
      const keys: Obj = {};
      const names = node.params.slice(listParams.length);
      (node.yang.keys ?? []).forEach((k, i) => {
        keys[k] = jsonValue(undefined, params[names[i]!] ?? '');
        const keyLeaf = node.children.find((c) => c.yang.name === k);
        if (keyLeaf !== undefined) keys[k] = jsonValue(leafSchema(doc, keyLeaf), String(keys[k]));
      });
      body = { [name]: [{ ...keys, ...values }] };
    } else body = { [name]: values };
    await edit(node.yang.kind === 'leaf' ? 'PUT' : 'PATCH', JSON.stringify(body), dataMedia('json'));
  };

  const invoke = async (): Promise<void> => {
    const body = raw.trim() === '' ? undefined : raw;
    const a = await send('POST', url(node.template), {
      accept: dataMedia('json'),
      ...(body === undefined ? {} : { body, contentType: dataMedia('json') }),
    });
    setAnswer(a);
  };

  const paramInputs = node.params.map(
    (p) => html`<label class="field param">
      <span>${p}</span>
      <input aria-label=${`key ${p}`} value=${params[p] ?? ''}
        onInput=${(e: Event) => setParams({ ...params, [p]: (e.target as HTMLInputElement).value })} />
    </label>`,
  );
  const editable = node.methods.includes('PUT');
  const leaves = formLeaves(node);

  return html`<article class="panel" aria-label="node">
    <header>
      <h2><code>${treeLine(node)}</code></h2>
      <div class="path">${root}${node.template}</div>
      ${node.description === undefined ? '' : html`<p class="description">${node.description}</p>`}
    </header>
    ${paramInputs.length > 0 ? html`<div class="params">${paramInputs}</div>` : ''}
    ${
      isOperation
        ? html`<section class="invoke">
            <h3>Invoke</h3>
            <textarea aria-label="input" rows="8" value=${raw} onInput=${(e: Event) => setRaw((e.target as HTMLTextAreaElement).value)}></textarea>
            <div class="buttons"><button class="primary" onClick=${invoke}>Invoke</button></div>
          </section>`
        : html`<section class="read">
            <div class="controls">
              <label>depth <select aria-label="depth" value=${depth} onChange=${(e: Event) => setDepth((e.target as HTMLSelectElement).value)}>
                ${['unbounded', '1', '2', '3', '4'].map((d) => html`<option value=${d}>${d}</option>`)}
              </select></label>
              <label>content <select aria-label="content" value=${content} onChange=${(e: Event) => setContent((e.target as HTMLSelectElement).value)}>
                ${['all', 'config', 'nonconfig'].map((c) => html`<option value=${c}>${c}</option>`)}
              </select></label>
              <label>encoding <select aria-label="encoding" value=${encoding} onChange=${(e: Event) => setEncoding((e.target as HTMLSelectElement).value as Encoding)}>
                <option value="json">JSON</option><option value="xml">XML</option>
              </select></label>
              ${isList ? html`<button onClick=${listEntries}>List entries</button>` : ''}
              <button class="primary" onClick=${readNode}>Read</button>
            </div>
            ${
              entries === undefined
                ? ''
                : html`<ul class="entries" aria-label="entries">
                    ${entries.length === 0 ? html`<li class="none">no entries</li>` : ''}
                    ${entries.map((e) => {
                      const label =
                        node.yang.kind === 'leaf-list'
                          ? String(e)
                          : (node.yang.keys ?? []).map((k) => String((e as Obj)[k])).join(', ');
                      return html`<li><button class="entry" onClick=${() => openEntry(e)}>${label}</button></li>`;
                    })}
                  </ul>`
            }
            ${read === undefined ? '' : html`<h3>Data</h3><${AnswerView} answer=${read} />`}
          </section>
          ${
            editable
              ? html`<section class="edit">
                  <h3>Edit <span class="modes">
                    <button class=${mode === 'form' ? 'on' : ''} onClick=${() => setMode('form')}>Form</button>
                    <button class=${mode === 'raw' ? 'on' : ''} onClick=${() => setMode('raw')}>Raw ${encoding.toUpperCase()}</button>
                  </span></h3>
                  ${
                    mode === 'form'
                      ? html`<div class="form">
                          ${leaves.length === 0 ? html`<p class="none">No leaves to edit here: use Raw.</p>` : ''}
                          ${leaves.map(
                            (
                              leaf,
                            ) => html`<${Field} leaf=${leaf} schema=${leafSchema(doc, leaf)} value=${form[leaf.yang.name] ?? ''}
                              onInput=${(v: string) => setForm({ ...form, [leaf.yang.name]: v })} />`,
                          )}
                          ${leaves.length === 0 ? '' : html`<div class="buttons"><button class="primary" onClick=${saveForm}>Save</button></div>`}
                        </div>`
                      : html`<div class="raw">
                          <textarea aria-label="body" rows="10" value=${raw} onInput=${(e: Event) => setRaw((e.target as HTMLTextAreaElement).value)}></textarea>
                          <div class="buttons">
                            ${['PUT', 'PATCH', 'POST', 'DELETE']
                              .filter((m) => node.methods.includes(m))
                              .map(
                                (m) =>
                                  html`<button onClick=${() => edit(m, m === 'DELETE' ? undefined : raw)}>${m}</button>`,
                              )}
                          </div>
                        </div>`
                  }
                </section>`
              : ''
          }`
    }
    ${answer === undefined ? '' : html`<h3>Answer</h3><${AnswerView} answer=${answer} />`}
  </article>`;
}
