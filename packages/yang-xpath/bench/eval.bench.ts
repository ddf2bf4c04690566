import { bench, describe } from 'vitest';
import {
  compileXPath,
  createEvaluationCache,
  type XmlNode,
  xmlDocument,
  xmlElement,
  xmlNavigator,
} from '../src/index.js';

// A list of 100,000 entries: thing { name; ref (leafref to another thing's name); x (leaf-list) }
const ENTRIES = 100_000;
const NS = 'urn:example:a';
const things: XmlNode[] = [];
for (let i = 0; i < ENTRIES; i++) {
  const xs = Array.from({ length: i % 4 }, (_, j) => xmlElement('x', NS, String(j)));
  things.push(
    xmlElement('thing', NS, [
      xmlElement('name', NS, `thing-${i}`),
      // every 1000th reference dangles
      xmlElement('ref', NS, i % 1000 === 0 ? 'missing' : `thing-${(i * 7919) % ENTRIES}`),
      ...xs,
    ]),
  );
}
const container = xmlElement('things', NS, things);
xmlDocument([container]);
const names = things.map((t) => t.children[0]!);
const refs = things.map((t) => t.children[1]!);
const prefixes = { a: NS };

const leafref = compileXPath('/a:things/a:thing[a:name = current()]', { prefixes });
const must = compileXPath("count(../a:x) <= 3 and . != 'bad'", { prefixes });

// hand-written checks over the same tree, the baseline
function baselineLeafref(): number {
  const index = new Set<string>();
  for (const thing of container.children) {
    if (thing.name !== 'thing' || thing.namespace !== NS) continue;
    for (const leaf of thing.children)
      if (leaf.name === 'name' && leaf.namespace === NS) index.add(leaf.value!);
  }
  let ok = 0;
  for (const ref of refs) if (index.has(ref.value!)) ok++;
  return ok;
}

function baselineMust(): number {
  let ok = 0;
  for (const name of names) {
    let count = 0;
    for (const sibling of name.parent!.children)
      if (sibling.name === 'x' && sibling.namespace === NS) count++;
    if (count <= 3 && name.value !== 'bad') ok++;
  }
  return ok;
}

const SAMPLE = 10;
function baselineLeafrefScan(): number {
  let ok = 0;
  for (let i = 0; i < SAMPLE; i++) {
    const wanted = refs[i]!.value;
    if (container.children.some((t) => t.children.some((l) => l.name === 'name' && l.value === wanted))) ok++;
  }
  return ok;
}

describe(`leafref check on all ${ENTRIES} entries (one evaluation per entry, index built per pass)`, () => {
  bench('hand-written Set lookup (baseline)', () => {
    if (baselineLeafref() !== ENTRIES - 100) throw new Error('baseline miscounted');
  });
  bench('compiled XPath with an evaluation cache', () => {
    const cache = createEvaluationCache();
    let ok = 0;
    for (const ref of refs) if (leafref.evaluateBoolean(ref, xmlNavigator, { cache })) ok++;
    if (ok !== ENTRIES - 100) throw new Error('xpath miscounted');
  });
});

describe(`leafref check without a cache (${SAMPLE} entries per pass, each scans the list)`, () => {
  bench('hand-written linear scan (baseline)', () => {
    baselineLeafrefScan();
  });
  bench('compiled XPath, no cache', () => {
    for (let i = 0; i < SAMPLE; i++) leafref.evaluateBoolean(refs[i]!, xmlNavigator);
  });
});

describe(`must on all ${ENTRIES} entries`, () => {
  bench('hand-written check (baseline)', () => {
    if (baselineMust() !== ENTRIES) throw new Error('baseline miscounted');
  });
  bench("compiled XPath: count(../a:x) <= 3 and . != 'bad'", () => {
    let ok = 0;
    for (const name of names) if (must.evaluateBoolean(name, xmlNavigator)) ok++;
    if (ok !== ENTRIES) throw new Error('xpath miscounted');
  });
});

describe('compile', () => {
  bench('compileXPath of a leafref path with a key predicate', () => {
    compileXPath('/a:things/a:thing[a:name = current()/../a:ref]/a:x', { prefixes });
  });
});
