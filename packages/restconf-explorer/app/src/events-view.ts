import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { send } from './restconf.js';

interface StreamAccess {
  readonly name: string;
  readonly encoding: string;
  readonly location: string;
}

interface Received {
  readonly at: string;
  readonly event: string;
  readonly text: string;
}

/** Most notifications kept on screen. */
const KEEP = 200;

/** The path of a stream location on this origin (the credentials of the page go with it). */
function sameOrigin(location: string): string {
  try {
    const u = new URL(location, window.location.href);
    return `${u.pathname}${u.search}`;
  } catch {
    return location;
  }
}

/** The event streams of restconf-state (RFC 8040 section 6.2); a chosen one shows its notifications live. */
export function EventsView({ root }: { root: string }) {
  const [streams, setStreams] = useState<StreamAccess[] | undefined>(undefined);
  const [problem, setProblem] = useState('');
  const [open, setOpen] = useState<string | undefined>(undefined);
  const [received, setReceived] = useState<Received[]>([]);
  const source = useRef<EventSource | undefined>(undefined);

  useEffect(() => {
    void send('GET', `${root}/data/ietf-restconf-monitoring:restconf-state/streams`, {
      accept: 'application/yang-data+json',
    }).then((a) => {
      if (a.status !== 200) {
        setProblem(`${a.status} ${a.errors[0]?.message ?? a.statusText}`);
        setStreams([]);
        return;
      }
      const list = JSON.parse(a.text)['ietf-restconf-monitoring:streams']?.stream ?? [];
      setStreams(
        list.flatMap((s: { name: string; access?: { encoding: string; location: string }[] }) =>
          (s.access ?? []).map((x) => ({ name: s.name, encoding: x.encoding, location: x.location })),
        ),
      );
    });
    return () => source.current?.close();
  }, [root]);

  const start = (s: StreamAccess): void => {
    source.current?.close();
    setReceived([]);
    const es = new EventSource(sameOrigin(s.location));
    es.onmessage = (e: MessageEvent<string>) => {
      let event = 'notification';
      let text = e.data;
      try {
        const n = JSON.parse(e.data)['ietf-restconf:notification'] ?? {};
        event = Object.keys(n).find((k) => k !== 'eventTime') ?? event;
        text = JSON.stringify(n, null, 2);
      } catch {
        // An XML stream: shown as it came.
      }
      setReceived((r) => [{ at: new Date().toLocaleTimeString(), event, text }, ...r].slice(0, KEEP));
    };
    es.onopen = () => setOpen(`${s.encoding}-${s.name}`);
    es.onerror = () => setProblem(`the stream ${s.name} (${s.encoding}) closed or could not be opened`);
    source.current = es;
  };
  const stop = (): void => {
    source.current?.close();
    source.current = undefined;
    setOpen(undefined);
  };

  return html`<article class="panel events" aria-label="events">
    <h2>Event streams</h2>
    ${problem === '' ? '' : html`<p class="problem">${problem}</p>`}
    ${streams === undefined ? html`<p>Loading…</p>` : ''}
    <ul class="streams">
      ${(streams ?? []).map(
        (s) => html`<li>
          <code>${s.name}</code> ${s.encoding}
          <button onClick=${() => start(s)} aria-label=${`open ${s.encoding}-${s.name}`}>Open</button>
        </li>`,
      )}
    </ul>
    ${
      open === undefined
        ? ''
        : html`<p class="live" aria-label="stream state">Receiving <code>${open}</code> <button onClick=${stop}>Close</button></p>`
    }
    <ol class="notifications" aria-label="notifications">
      ${received.map((r) => html`<li><div class="when">${r.at} <b>${r.event}</b></div><pre>${r.text}</pre></li>`)}
    </ol>
  </article>`;
}
