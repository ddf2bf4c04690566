/**
 * One benchmark case run alone in a child process so that its peak memory (maxRSS) is its own:
 * `node memory-case.js <case> <input> <yang-dir>` prints `{"case", "ms", "maxRssKb"}` as JSON.
 */
import { readFileSync } from 'node:fs';
import { loadSchema } from '@yangkit/yang-schema';
import { decodeJson, decodeXml, encodeJson, encodeXml } from '../src/index';
import { jsonToXmlFloor, xmlToJsonFloor } from './floor';

const [name, input, yangDir] = process.argv.slice(2);
const text = readFileSync(input!, 'utf8');
const schema =
  name?.startsWith('codec') === true
    ? await loadSchema({ paths: [yangDir!], modules: ['ietf-interfaces', 'ietf-ip', 'iana-if-type'] })
    : undefined;
const start = performance.now();
let out = '';
switch (name) {
  case 'floor-xml-json':
    out = xmlToJsonFloor(text);
    break;
  case 'floor-json-xml':
    out = jsonToXmlFloor(text);
    break;
  case 'codec-xml-json':
    out = encodeJson(decodeXml(schema!, text));
    break;
  case 'codec-json-xml':
    out = encodeXml(decodeJson(schema!, text));
    break;
  default:
    throw new Error(`unknown case ${name}`);
}
const ms = performance.now() - start;
process.stdout.write(
  `${JSON.stringify({ case: name, ms: Math.round(ms), outputChars: out.length, maxRssKb: process.resourceUsage().maxRSS })}\n`,
);
