import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the test server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

const JSON_MEDIA = 'application/yang-data+json';
const XML_MEDIA = 'application/yang-data+xml';

const errorsJson = (type: string, tag: string, message: string, path?: string) =>
  JSON.stringify({
    'ietf-restconf:errors': {
      error: [
        {
          'error-type': type,
          'error-tag': tag,
          ...(path ? { 'error-path': path } : {}),
          'error-message': message,
        },
      ],
    },
  });

const errorsXml = (type: string, tag: string, message: string) =>
  `<errors xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf"><error><error-type>${type}</error-type>` +
  `<error-tag>${tag}</error-tag><error-message>${message}</error-message></error></errors>`;

/**
 * A small RESTCONF server speaking the RFC 8040 wire format over an in-memory store of
 * `example-jukebox:jukebox/library/artist` entries: host-meta, data CRUD with ETags, an
 * operation, a schema, the stream list and an event stream numbering its events.
 */
export async function startTestServer(
  options: {
    root?: string;
    dropStreamAfter?: number;
    /** Extra files served as is (path -> content type and body), e.g. a page and a script. */
    files?: Record<string, { type: string; body: string }>;
  } = {},
) {
  const root = options.root ?? '/top/restconf';
  const seen: SeenRequest[] = [];
  const artists = new Map<string, Record<string, unknown>>([['Foo Fighters', { name: 'Foo Fighters' }]]);
  let revision = 1;
  let streamConnections = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://test');
      const xml = /xml/.test(req.headers.accept ?? '');
      const send = (status: number, text?: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, {
          ...(text === undefined ? {} : { 'content-type': xml ? XML_MEDIA : JSON_MEDIA }),
          ...headers,
        });
        res.end(text);
      };
      const fail = (status: number, tag: string, message: string, path?: string) =>
        send(status, xml ? errorsXml('protocol', tag, message) : errorsJson('protocol', tag, message, path));
      const etag = `"rev-${revision}"`;
      const p = url.pathname;
      const file = options.files?.[p];
      if (file !== undefined) {
        res.writeHead(200, { 'content-type': file.type });
        res.end(file.body);
        return;
      }
      if (p === '/.well-known/host-meta') {
        res.writeHead(200, { 'content-type': 'application/xrd+xml' });
        res.end(
          `<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0"><Link rel="restconf" href="${root}"/></XRD>`,
        );
        return;
      }
      if (
        req.headers.authorization !== undefined &&
        req.headers.authorization !== `Basic ${Buffer.from('admin:sécret').toString('base64')}`
      ) {
        return fail(401, 'access-denied', 'bad credentials');
      }
      if (p === `${root}/data/example-jukebox:jukebox/library` && req.method === 'GET') {
        if (req.headers['if-none-match'] === etag) return send(304, undefined, { etag });
        if (xml) {
          const entries = [...artists.keys()].map((n) => `<artist><name>${n}</name></artist>`).join('');
          return send(200, `<library xmlns="http://example.com/ns/example-jukebox">${entries}</library>`, {
            etag,
          });
        }
        return send(200, JSON.stringify({ 'example-jukebox:library': { artist: [...artists.values()] } }), {
          etag,
        });
      }
      if (p === `${root}/data/example-jukebox:jukebox/library` && req.method === 'POST') {
        const value = JSON.parse(body)['example-jukebox:artist'][0] as { name: string };
        if (artists.has(value.name)) {
          return fail(
            409,
            'data-exists',
            'the entry exists',
            `/example-jukebox:jukebox/library/artist[name='${value.name}']`,
          );
        }
        artists.set(value.name, value);
        revision++;
        return send(201, undefined, {
          location: `${root}/data/example-jukebox:jukebox/library/artist=${encodeURIComponent(value.name)}`,
          etag: `"rev-${revision}"`,
        });
      }
      const artist = /^.*\/data\/example-jukebox:jukebox\/library\/artist=([^/]*)$/.exec(p);
      if (artist && p.startsWith(root)) {
        const name = decodeURIComponent(artist[1] ?? '');
        if (req.headers['if-match'] !== undefined && req.headers['if-match'] !== etag) {
          return fail(412, 'operation-failed', 'entity-tag mismatch');
        }
        if (req.method === 'DELETE') {
          if (!artists.delete(name)) return fail(404, 'invalid-value', 'no such artist');
          revision++;
          return send(204);
        }
        if (
          (req.method === 'PUT' || req.method === 'PATCH') &&
          /xml/.test(req.headers['content-type'] ?? '')
        ) {
          return send(204);
        }
        if (req.method === 'PUT' || req.method === 'PATCH') {
          artists.set(name, { ...artists.get(name), ...JSON.parse(body)['example-jukebox:artist'][0] });
          revision++;
          return send(204, undefined, { etag: `"rev-${revision}"` });
        }
        if (req.method === 'GET') {
          const entry = artists.get(name);
          return entry
            ? send(200, JSON.stringify({ 'example-jukebox:artist': [entry] }), { etag })
            : fail(404, 'invalid-value', 'no such artist');
        }
      }
      if (p === `${root}/operations/example-jukebox:play` && req.method === 'POST') {
        if (xml) return send(204);
        const input = JSON.parse(body)['example-jukebox:input'] as Record<string, unknown>;
        if (input.playlist === undefined) return fail(400, 'missing-element', 'playlist is required');
        return send(200, JSON.stringify({ 'example-jukebox:output': { playing: input.playlist } }));
      }
      if (p === `${root}/operations/ietf-netconf:get-config` && req.method === 'POST') {
        const data = { 'example-jukebox:jukebox': { library: { artist: [...artists.values()] } } };
        if (xml) {
          return send(200, '<output xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><data/></output>');
        }
        return send(200, JSON.stringify({ 'ietf-netconf:output': { data } }));
      }
      if (p === `${root}/yang/example-jukebox` && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/yang' });
        return res.end('module example-jukebox {\n  namespace "http://example.com/ns/example-jukebox";\n}\n');
      }
      if (p === `${root}/yang-library-version`) {
        return send(200, JSON.stringify({ 'ietf-restconf:yang-library-version': '2019-01-04' }));
      }
      if (p === `${root}/data/ietf-restconf-monitoring:restconf-state/streams`) {
        const location = (encoding: string) => `http://${req.headers.host}${root}/streams/${encoding}`;
        return send(
          200,
          JSON.stringify({
            'ietf-restconf-monitoring:streams': {
              stream: [
                {
                  name: 'NETCONF',
                  'replay-support': true,
                  access: [
                    { encoding: 'xml', location: location('xml') },
                    { encoding: 'json', location: location('json') },
                  ],
                },
              ],
            },
          }),
        );
      }
      // RFC 8650 section 3.4: establish, then read the subscription's uri.
      if (
        p === `${root}/operations/ietf-subscribed-notifications:establish-subscription` &&
        req.method === 'POST'
      ) {
        return send(
          200,
          JSON.stringify({
            'ietf-subscribed-notifications:output': {
              id: 22,
              'ietf-restconf-subscribed-notifications:uri': `${root}/subscriptions/22`,
            },
          }),
        );
      }
      if (p === `${root}/subscriptions/22`) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          `data: ${JSON.stringify({ 'ietf-restconf:notification': { eventTime: '2026-01-01T00:00:00Z', 'ietf-yang-push:push-update': { id: 22 } } })}\n\n`,
        );
        return void res.end();
      }
      if (p === `${root}/streams/json` || p === `${root}/streams/xml`) {
        streamConnections++;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const after = Number(req.headers['last-event-id'] ?? 0);
        const json = p.endsWith('json');
        res.write(':SSE keepalive\n\nretry: 10\n\n');
        const last =
          options.dropStreamAfter !== undefined && streamConnections === 1
            ? options.dropStreamAfter
            : after + 3;
        for (let n = after + 1; n <= last; n++) {
          const data = json
            ? JSON.stringify(
                {
                  'ietf-restconf:notification': {
                    eventTime: `2026-01-01T00:00:0${n}Z`,
                    'example-jukebox:tick': { n, filter: url.searchParams.get('filter') },
                  },
                },
                null,
                2,
              )
            : `<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>2026-01-01T00:00:0${n}Z</eventTime><tick xmlns="http://example.com/ns/example-jukebox"><n>${n}</n></tick></notification>`;
          res.write(
            `id: ${n}\n${data
              .split('\n')
              .map((l) => `data: ${l}`)
              .join('\n')}\n\n`,
          );
        }
        if (options.dropStreamAfter !== undefined && streamConnections === 1) {
          // Drop the connection once the events are on their way, as a failing proxy would.
          setTimeout(() => res.socket?.destroy(), 50);
          return;
        }
        return; // stays open, as an event stream does
      }
      res.writeHead(405, { allow: 'GET', 'content-type': JSON_MEDIA });
      res.end(errorsJson('protocol', 'operation-not-supported', `no ${req.method} on ${p}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    root,
    seen,
    artists,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
