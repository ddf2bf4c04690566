import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import { build } from 'tsup';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { decodeJson, decodeXml, encodeJson, encodeXml } from '../src/index';
import { jsonToXmlFloor, xmlToJsonFloor } from './floor';
import { interfacesXml } from './interfaces-document';

/**
 * 100,000 ietf-interfaces entries with ietf-ip addresses, converted XML -> JSON and JSON -> XML by this
 * codec, beside two baselines in the same run: @yangkit/xml + JSON.stringify (no schema work: the
 * floor) and libyang's yanglint (when installed). Times come from vitest bench, and again from running
 * every case in its own child process in interleaved rounds (best of BENCH_ROUNDS, default 3), which also
 * gives each case's peak memory (maxRSS). BENCH_INTERFACES changes the count.
 */
const COUNT = Number(process.env.BENCH_INTERFACES ?? 100_000);
const SHARED_YANG = path.resolve(__dirname, '../../../yang');
const CORPUS = path.join(SHARED_YANG, 'corpus');
const dir = mkdtempSync(path.join(tmpdir(), 'yang-json-codec-bench-'));
const xmlFile = path.join(dir, 'interfaces.xml');
const jsonFile = path.join(dir, 'interfaces.json');
const yanglint = spawnSync('yanglint', ['--version']).status === 0;
const yangFiles = [
  path.join(CORPUS, 'ietf/ietf-interfaces@2018-02-20.yang'),
  path.join(CORPUS, 'ietf/ietf-ip@2018-02-22.yang'),
  path.join(CORPUS, 'iana/iana-if-type@2026-03-17.yang'),
];
const options = { iterations: 3, warmupIterations: 1, time: 0, warmupTime: 0 };

let schema: SchemaTree;
let xml = '';
let json = '';

beforeAll(async () => {
  schema = await loadSchema({
    paths: [SHARED_YANG],
    modules: ['ietf-interfaces', 'ietf-ip', 'iana-if-type'],
  });
  xml = interfacesXml(COUNT);
  json = encodeJson(decodeXml(schema, xml));
  writeFileSync(xmlFile, xml);
  writeFileSync(jsonFile, json);
}, 600_000);

function runYanglint(format: 'json' | 'xml', input: string): void {
  execFileSync(
    'yanglint',
    ['-p', CORPUS, ...yangFiles, '-t', 'config', '-f', format, input, '-o', path.join(dir, `out.${format}`)],
    {
      stdio: 'ignore',
    },
  );
}

describe(`XML -> JSON, ${COUNT} interfaces`, () => {
  bench(
    '@yangkit/xml readXml + JSON.stringify (floor, no schema)',
    () => {
      xmlToJsonFloor(xml);
    },
    options,
  );
  bench(
    'yang-json-codec decodeXml + encodeJson',
    () => {
      encodeJson(decodeXml(schema, xml));
    },
    options,
  );
  bench.skipIf(!yanglint)(
    'yanglint -t config -f json (libyang, process)',
    () => runYanglint('json', xmlFile),
    options,
  );
});

describe(`JSON -> XML, ${COUNT} interfaces`, () => {
  bench(
    'JSON.parse + @yangkit/xml escaping (floor, no schema)',
    () => {
      jsonToXmlFloor(json);
    },
    options,
  );
  bench(
    'yang-json-codec decodeJson + encodeXml',
    () => {
      encodeXml(decodeJson(schema, json));
    },
    options,
  );
  bench.skipIf(!yanglint)(
    'yanglint -t config -f xml (libyang, process)',
    () => runYanglint('xml', jsonFile),
    options,
  );
});

afterAll(async () => {
  // Peak memory needs a process per case: the bundled case runner, and GNU time for yanglint.
  await build({
    entry: { 'memory-case': path.join(__dirname, 'memory-case.ts') },
    outDir: dir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    noExternal: [/.*/],
    splitting: false,
    dts: false,
    silent: true,
    config: false,
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    esbuildOptions(o) {
      o.conditions = ['source'];
    },
  });
  const runner = path.join(dir, 'memory-case.js');
  // Interleaved rounds: on a shared machine the load changes over minutes, so every case runs once per
  // round and the fastest round counts (peak RSS is the same each round).
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const best = new Map<string, { ms: number; rssKb: number }>();
  const record = (c: string, ms: number, rssKb: number) => {
    const prev = best.get(c);
    best.set(c, {
      ms: Math.min(prev?.ms ?? Number.POSITIVE_INFINITY, ms),
      rssKb: Math.max(prev?.rssKb ?? 0, rssKb),
    });
  };
  const node = (c: string, input: string) => {
    const out = execFileSync(process.execPath, [runner, c, input, SHARED_YANG], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    const r = JSON.parse(out) as { ms: number; maxRssKb: number };
    record(c, r.ms, r.maxRssKb);
  };
  const lint = (format: 'json' | 'xml', input: string) => {
    if (!yanglint || !existsSync('/usr/bin/time')) return;
    const args = [
      '-f',
      '%e %M',
      'yanglint',
      '-p',
      CORPUS,
      ...yangFiles,
      '-t',
      'config',
      '-f',
      format,
      input,
      '-o',
      path.join(dir, `m.${format}`),
    ];
    const r = spawnSync('/usr/bin/time', args, { encoding: 'utf8' });
    const [secs, kb] = r.stderr.trim().split('\n').pop()!.split(' ');
    record(
      `yanglint-${format === 'json' ? 'xml-json' : 'json-xml'}`,
      Math.round(Number(secs) * 1000),
      Number(kb),
    );
  };
  for (let round = 0; round < rounds; round++) {
    node('floor-xml-json', xmlFile);
    node('codec-xml-json', xmlFile);
    lint('json', xmlFile);
    node('floor-json-xml', jsonFile);
    node('codec-json-xml', jsonFile);
    lint('xml', jsonFile);
  }
  const rows = [...best].map(([c, r]) => {
    const codec = best.get(c.endsWith('xml-json') ? 'codec-xml-json' : 'codec-json-xml')!;
    return `| ${c} | ${r.ms} ms | ${(r.ms / codec.ms).toFixed(2)} | ${Math.round(r.rssKb / 1024)} MiB |`;
  });
  const table = [
    `| case (best of ${rounds} interleaved rounds, own process) | time | time / codec | peak RSS |`,
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
  writeFileSync(path.join(dir, 'memory.md'), table);
  console.log(
    `\n${COUNT} interfaces (XML ${(xml.length / 1e6).toFixed(1)} MB, JSON ${(json.length / 1e6).toFixed(1)} MB):\n${table}\n`,
  );
}, 1_200_000);
