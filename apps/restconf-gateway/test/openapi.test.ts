import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';
import { addUser } from '../src/security/users-file.js';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI objects are read where present
type Obj = Record<string, any>;

const silent = { logger: pino({ level: 'silent' }) };
const DOC_ID = 'https://yangkit.invalid/openapi.json';

let gw: Gateway;
let doc: Obj;
beforeAll(async () => {
  gw = await startGateway({ port: 0 }, silent);
  doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as Obj;
});
afterAll(() => gw.close());

/** A checker of documented schemas: `#/components/...` refs resolve in the served document. */
function schemaChecker(document: Obj): (schema: Obj, value: unknown) => string | undefined {
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ ...document, $id: DOC_ID });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return (schema, value) => {
    const key = JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`);
    let check = cache.get(key);
    if (check === undefined) {
      check = ajv.compile(JSON.parse(key));
      cache.set(key, check);
    }
    return check(value) ? undefined : ajv.errorsText(check.errors);
  };
}

describe('the OpenAPI documents of the gateway', () => {
  test('/openapi.json is a valid OpenAPI 3.1 document of every module, at the RESTCONF root', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(doc.servers).toEqual([{ url: '/restconf' }]);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/data', '/data/example-jukebox:jukebox', '/operations/example-ops:reboot']),
    );
  });

  test('/openapi/{module}.json documents one module', async () => {
    const res = await fetch(`${gw.url}/openapi/example-ops.json`);
    expect(res.headers.get('content-type')).toBe('application/json');
    const one = (await res.json()) as Obj;
    expect(
      Object.keys(one.paths)
        .filter((p) => p !== '/streams/{stream}')
        .sort(),
    ).toEqual(['/operations/example-ops:get-reboot-info', '/operations/example-ops:reboot']);
  });

  test('an unknown module answers 404 with an ietf-restconf:errors body, another method 405', async () => {
    const missing = await fetch(`${gw.url}/openapi/no-such-module.json`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Obj)['ietf-restconf:errors'].error[0]['error-tag']).toBe(
      'invalid-value',
    );
    const post = await fetch(`${gw.url}/openapi.json`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  test('every documented GET of the sample data answers as documented', async () => {
    const check = schemaChecker(doc);
    const concrete = new Map<string, string | null>([['/data', '/data']]);
    const bodies = new Map<string, unknown>();
    let validated = 0;
    for (const [template, item] of Object.entries(doc.paths as Obj)) {
      if (!template.startsWith('/data/') || item.get === undefined) continue;
      const cut = template.lastIndexOf('/');
      const parent = concrete.get(template.slice(0, cut));
      const segment = template.slice(cut + 1);
      let url: string | null = null;
      if (parent === null || parent === undefined) url = null;
      else if (!segment.includes('={')) url = `${parent}/${segment}`;
      else {
        // A list entry: the keys of the first entry its every-entry resource answered.
        const listTemplate = template.slice(0, template.lastIndexOf('='));
        const entries = Object.values((bodies.get(listTemplate) as Obj | undefined) ?? {})[0];
        const first = Array.isArray(entries) ? entries[0] : undefined;
        const y = item['x-yang'];
        if (first !== undefined) {
          const values = y.kind === 'leaf-list' ? [first] : y.keys.map((k: string) => first[k]);
          url = `${concrete.get(listTemplate)}=${values.map((v: unknown) => encodeURIComponent(String(v))).join(',')}`;
        }
      }
      concrete.set(template, url);
      if (url === null) continue;
      const res = await fetch(`${gw.url}/restconf${url}`, {
        headers: { Accept: 'application/yang-data+json' },
      });
      const status = String(res.status);
      expect(Object.keys(item.get.responses), `${url} answered ${status}`).toContain(status);
      if (res.status !== 200) {
        concrete.set(template, null);
        continue;
      }
      const body = await res.json();
      bodies.set(template, body);
      const schema = item.get.responses['200'].content['application/yang-data+json'].schema;
      expect(check(schema, body), `${url}: ${JSON.stringify(body).slice(0, 300)}`).toBeUndefined();
      validated++;
    }
    expect(validated).toBeGreaterThan(40);
  });

  test('every documented method is one the server allows, and state data allows no edit', async () => {
    for (const template of [
      '/data/example-jukebox:jukebox/library/artist={name}',
      '/data/example-jukebox:jukebox/library/artist-count',
      '/data/example-jukebox:jukebox/player/gap',
      '/data/ietf-restconf-monitoring:restconf-state/streams',
    ]) {
      const url = template.replace('{name}', 'Foo%20Fighters');
      const allow =
        (await fetch(`${gw.url}/restconf${url}`, { method: 'OPTIONS' })).headers.get('allow') ?? '';
      const documented = Object.keys(doc.paths[template]).filter((k) =>
        ['get', 'put', 'post', 'patch', 'delete'].includes(k),
      );
      for (const m of documented) expect(allow.split(', '), `${m} on ${url}`).toContain(m.toUpperCase());
      if (documented.length === 1) expect(allow).toBe('GET, HEAD, OPTIONS');
    }
  });

  test('an operation answers with the documented output', async () => {
    const check = schemaChecker(doc);
    const op = doc.paths['/operations/example-ops:get-reboot-info'].post;
    const res = await fetch(`${gw.url}/restconf/operations/example-ops:get-reboot-info`, {
      method: 'POST',
      headers: { Accept: 'application/yang-data+json' },
    });
    expect(res.status).toBe(200);
    expect(
      check(op.responses['200'].content['application/yang-data+json'].schema, await res.json()),
    ).toBeUndefined();
  });

  test('a refused edit answers the documented status with the documented errors body', async () => {
    const check = schemaChecker(doc);
    const put = doc.paths['/data/example-jukebox:jukebox/player/gap'].put;
    const res = await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox/player/gap`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/yang-data+json', Accept: 'application/yang-data+json' },
      body: JSON.stringify({ 'example-jukebox:gap': 'loud' }),
    });
    expect(Object.keys(put.responses)).toContain(String(res.status));
    const errors = doc.components.responses.errors.content['application/yang-data+json'].schema;
    expect(check(errors, await res.json())).toBeUndefined();
  });
});

describe('the explorer flag', () => {
  test('--explorer=false leaves the documents and takes the explorer away', async () => {
    const off = await startGateway(
      { port: 0, explorer: false, module: ['example-ops'], initialData: '' },
      silent,
    );
    try {
      expect((await fetch(`${off.url}/explorer/`)).status).toBe(404);
      expect((await fetch(`${off.url}/openapi.json`)).status).toBe(200);
    } finally {
      await off.close();
    }
  });

  test('the explorer is served on loopback by default', async () => {
    const res = await fetch(`${gw.url}/explorer/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="app">');
  });
});

describe('with NACM', () => {
  let secured: Gateway;
  const as = (user: string, url: string, init: RequestInit = {}) =>
    fetch(`${secured.url}${url}`, {
      ...init,
      headers: {
        Authorization: `Basic ${Buffer.from(`${user}:${user}-pw`).toString('base64')}`,
        'Content-Type': 'application/yang-data+json',
      },
    });
  const paths = async (user: string) =>
    Object.keys(((await (await as(user, '/openapi.json')).json()) as Obj).paths);

  beforeAll(async () => {
    const usersFile = path.join(mkdtempSync(path.join(tmpdir(), 'gateway-openapi-')), 'users.txt');
    for (const user of ['admin', 'bob']) await addUser(usersFile, user, `${user}-pw`);
    secured = await startGateway({ port: 0, usersFile, nacmAdmin: 'admin' }, silent);
  });
  afterAll(() => secured.close());

  test('a user sees only what the rules let the user read or run; the admin sees all', async () => {
    const rules = {
      'ietf-netconf-acm:nacm': {
        groups: { group: [{ name: 'operators', 'user-name': ['bob'] }] },
        'rule-list': [
          {
            name: 'operators',
            group: ['operators'],
            rule: [
              {
                name: 'no-playlists',
                'module-name': 'example-jukebox',
                path: '/example-jukebox:jukebox/playlist',
                'access-operations': 'read',
                action: 'deny',
              },
              {
                name: 'no-reboot',
                'module-name': 'example-ops',
                'rpc-name': 'reboot',
                'access-operations': 'exec',
                action: 'deny',
              },
            ],
          },
        ],
      },
    };
    const before = await paths('bob');
    expect(before).toContain('/operations/example-ops:reboot');
    const put = await as('admin', '/restconf/data/ietf-netconf-acm:nacm', {
      method: 'PUT',
      body: JSON.stringify(rules),
    });
    expect([201, 204]).toContain(put.status);
    const bob = await paths('bob');
    expect(bob).toContain('/data/example-jukebox:jukebox/library');
    expect(bob.some((p) => p.includes('/playlist'))).toBe(false);
    expect(bob).not.toContain('/operations/example-ops:reboot');
    const admin = await paths('admin');
    expect(admin).toContain('/operations/example-ops:reboot');
    expect(admin.some((p) => p.includes('/playlist'))).toBe(true);
  });

  test('the documents need authentication and declare HTTP Basic', async () => {
    expect((await fetch(`${secured.url}/openapi.json`)).status).toBe(401);
    const doc = (await (await as('admin', '/openapi.json')).json()) as Obj;
    expect(doc.components.securitySchemes).toEqual({ basic: { type: 'http', scheme: 'basic' } });
  });
});
