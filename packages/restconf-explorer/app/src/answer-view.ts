import { html } from 'htm/preact';
import { type Answer, pretty } from './restconf.js';

/** The status and body of an answer; an errors body as a list of its errors, inline. */
export function AnswerView({ answer }: { answer: Answer | undefined }) {
  if (answer === undefined) return null;
  const ok = answer.status < 400;
  return html`<section class=${`answer ${ok ? 'ok' : 'failed'}`} aria-label="answer">
    <div class="status">${answer.status} ${answer.statusText}</div>
    ${
      answer.errors.length > 0
        ? html`<ul class="errors" aria-label="errors">
            ${answer.errors.map(
              (e) => html`<li>
                <b>${e.tag}</b>${e.appTag === undefined ? '' : html` (${e.appTag})`}: ${e.message ?? ''}
                ${e.path === undefined ? '' : html`<div class="error-path">${e.path}</div>`}
              </li>`,
            )}
          </ul>`
        : ''
    }
    ${answer.text === '' ? '' : html`<pre class="body" aria-label="body">${pretty(answer.text, answer.contentType)}</pre>`}
  </section>`;
}
