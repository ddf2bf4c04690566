import path from 'node:path';
import { constants, type PerformanceEntry, PerformanceObserver, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { streamXml, type XmlSink } from '@yangkit/xml';
import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { decodeJson, decodeXml, encodeJson, encodeJsonChunks, encodeXmlChunks, validate } from '../src/index';
import { jsonToPlainTree, plainToXmlFloor, xmlToPlainTree } from './floor';
import { interfacesXml } from './interfaces-document';

/**
 * Where the time of a conversion goes, phase by phase, as `yang-convert` runs it: BENCH_INTERFACES
 * (100,000) ietf-interfaces entries decoded from text given in pieces of 64 KiB (as the command reads
 * a file), validated, then encoded into the other format with an indent of 2. Each phase is timed,
 * with the young and full garbage collections that ran in it (count and time, from V8's `gc`
 * performance entries), XML -> JSON and JSON -> XML. Beside them, each direction's floor, the same
 * text read and written with no schema work: the XML read by `@yangkit/xml` into a sink that keeps
 * nothing, or the JSON by one `JSON.parse`; the same read building a tree of plain nodes, one for
 * each element or member (`floor.ts`), what holding the document costs before any schema work; the
 * output written from the JSON parsed, by `JSON.stringify` indented as the codec indents, or by the
 * plain XML writer of `floor.ts`. The figures are printed, not compared: for the ratios to yanglint
 * see `convert.bench.ts` and the gateway's side-by-side benchmark.
 */
const COUNT = Number(process.env.BENCH_INTERFACES ?? 100_000);
const YANG = path.resolve(__dirname, '../../yang-schema/yang');
const IANA = path.resolve(__dirname, '../../../yang/rfc7223');
const PIECE = 64 * 1024;

let schema: SchemaTree;
let xml = '';
let json = '';
/** The last conversion's line of each direction (the first of each warms up). */
const lines = new Map<string, string>();

/** `text` in pieces, as a file read a block at a time. */
function* pieces(text: string): Generator<string> {
  for (let at = 0; at < text.length; at += PIECE) yield text.slice(at, at + PIECE);
}

/** The garbage collections V8 reported, with when they started and how long they took. */
const collections: PerformanceEntry[] = [];
const observer = new PerformanceObserver((list) => collections.push(...list.getEntries()));

/** Runs `work` and returns its time and the collections that started during it. */
async function phase(work: () => void): Promise<string> {
  const start = performance.now();
  work();
  const end = performance.now();
  await sleep(50); // the entries of the collections are handed over by a timer, not on the next turn
  const during = collections.filter((c) => c.startTime >= start && c.startTime < end);
  const minor = (c: PerformanceEntry) =>
    (c as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ===
    constants.NODE_PERFORMANCE_GC_MINOR;
  const sum = (cs: PerformanceEntry[]) => Math.round(cs.reduce((ms, c) => ms + c.duration, 0));
  const young = during.filter(minor);
  const full = during.filter((c) => !minor(c));
  return `${Math.round(end - start)} ms (young collections ${young.length}, ${sum(young)} ms; full ${full.length}, ${sum(full)} ms)`;
}

async function conversion(from: 'xml' | 'json'): Promise<void> {
  let tree: ReturnType<typeof decodeXml> | undefined;
  let chars = 0;
  const decode = await phase(() => {
    const options = { kind: 'config' } as const;
    tree =
      from === 'xml' ? decodeXml(schema, pieces(xml), options) : decodeJson(schema, pieces(json), options);
  });
  const check = await phase(() => {
    if (validate(tree!).length > 0) throw new Error('the document does not validate');
  });
  const encode = await phase(() => {
    const chunks =
      from === 'xml' ? encodeJsonChunks(tree!, { indent: 2 }) : encodeXmlChunks(tree!, { indent: 2 });
    for (const chunk of chunks) chars += chunk.length;
  });
  tree = undefined;
  const read = await phase(() => {
    if (from === 'xml') streamXml(pieces(xml), DISCARD, READ_ALL);
    else JSON.parse(json);
  });
  const plainTree = await phase(() => {
    if (from === 'xml') xmlToPlainTree(pieces(xml), READ_ALL);
    else jsonToPlainTree(JSON.parse(json) as object);
  });
  // The same data as plain objects, parsed only now: held during the codec's phases, it would be
  // old-generation memory the codec's collections do not have in a conversion of their own.
  const plain = JSON.parse(json) as object;
  const write = await phase(() => {
    if (from === 'xml') JSON.stringify(plain, null, 2);
    else plainToXmlFloor(plain);
  });
  const to = from === 'xml' ? 'JSON' : 'XML';
  lines.set(
    from,
    `| ${from.toUpperCase()} -> ${to} | ${decode} | ${check} | ${encode} | ${(chars / 1e6).toFixed(1)} MB | ${read} | ${plainTree} | ${write} |`,
  );
}

/** Streams every element and keeps nothing: what reading the XML costs before any decoding. */
const DISCARD: XmlSink = { open: () => 'stream', text: () => {}, close: () => {} };
const READ_ALL = {
  maxSize: Number.POSITIVE_INFINITY,
  maxElements: Number.POSITIVE_INFINITY,
  maxTextLength: Number.POSITIVE_INFINITY,
};

beforeAll(async () => {
  schema = await loadSchema({ paths: [YANG, IANA], modules: ['ietf-interfaces', 'ietf-ip', 'iana-if-type'] });
  xml = interfacesXml(COUNT);
  json = encodeJson(decodeXml(schema, xml));
  observer.observe({ entryTypes: ['gc'] });
}, 600_000);

afterAll(() => {
  observer.disconnect();
  console.log(
    `\n${COUNT} interfaces, a conversion per direction after one of each to warm up:\n` +
      '| conversion | decode, from 64 KiB pieces | validate | encode, indented | output | floor: read alone | floor: read into a tree of plain nodes | floor: write alone |\n|---|---|---|---|---|---|---|---|\n' +
      `${[...lines.values()].join('\n')}\n`,
  );
});

const once = { iterations: 2, warmupIterations: 0, time: 0, warmupTime: 0 };

describe(`phases of a conversion, ${COUNT} interfaces`, () => {
  // Async functions: tinybench calls any other function once more to learn whether it is async.
  bench('XML -> JSON', async () => conversion('xml'), once);
  bench('JSON -> XML', async () => conversion('json'), once);
});
