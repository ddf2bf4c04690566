import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { send } from './restconf.js';

/** The OpenAPI document of every module, or of one (`/openapi/{module}.json`). */
export function OpenApiView({ modules }: { modules: readonly string[] }) {
  const [module, setModule] = useState('');
  const [text, setText] = useState('');
  const url = module === '' ? '../openapi.json' : `../openapi/${encodeURIComponent(module)}.json`;
  useEffect(() => {
    setText('');
    void send('GET', url, { accept: 'application/json' }).then((a) =>
      setText(a.status === 200 ? JSON.stringify(JSON.parse(a.text), null, 2) : `${a.status} ${a.text}`),
    );
  }, [url]);
  return html`<article class="panel openapi" aria-label="openapi">
    <h2>OpenAPI 3.1 document</h2>
    <div class="controls">
      <label>module <select aria-label="module" value=${module} onChange=${(e: Event) => setModule((e.target as HTMLSelectElement).value)}>
        <option value="">all modules</option>
        ${modules.map((m) => html`<option value=${m}>${m}</option>`)}
      </select></label>
      <a href=${url} download>Download</a>
    </div>
    <pre class="body">${text === '' ? 'Loading…' : text}</pre>
  </article>`;
}
