import path from 'node:path';
import { loadSchema } from '@yangkit/yang-schema';
import { bench, describe } from 'vitest';
import { decodeJson, decodeXml, encodeJson, encodeXml } from '../src/index';
import { interfacesXml } from './interfaces-document';

/**
 * Decoding and encoding an ietf-interfaces list of 1,000 and 10,000 entries (with ietf-ip addresses) both
 * ways, the sizes of a datastore read: `npx vitest bench --run bench/list-sizes.bench.ts`.
 */
const SHARED_YANG = path.resolve(__dirname, '../../../yang');
const schema = await loadSchema({
  paths: [SHARED_YANG],
  modules: ['ietf-interfaces', 'ietf-ip', 'iana-if-type'],
});

for (const count of [1000, 10_000]) {
  const xml = interfacesXml(count);
  const tree = decodeXml(schema, xml);
  const json = encodeJson(tree);
  const label = count.toLocaleString('en');
  describe(`${label} interfaces`, () => {
    bench(`decodeXml, ${label}`, () => {
      decodeXml(schema, xml);
    });
    bench(`encodeJson, ${label}`, () => {
      encodeJson(tree);
    });
    bench(`decodeJson, ${label}`, () => {
      decodeJson(schema, json);
    });
    bench(`encodeXml, ${label}`, () => {
      encodeXml(tree);
    });
  });
}
