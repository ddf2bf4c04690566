import path from 'node:path';
import { loadSchema } from '@yangkit/yang-schema';
import { test } from 'vitest';
import { decodeJson, decodeXml, encodeJson, encodeXml } from '../src/index';

const shared = path.resolve(__dirname, '../../../../shared/yang');
test('scratch', async () => {
  const t0 = Date.now();
  const tree = await loadSchema({ paths: [shared], modules: ['ietf-interfaces', 'ietf-ip', 'example-jukebox', 'ietf-origin', 'ietf-netconf-with-defaults', 'iana-if-type'] });
  console.log('load ms', Date.now() - t0, tree.modules.map((m) => m.name).join(','));
  console.log([...tree.annotations.keys()], [...tree.yangData.keys()]);
  const xml = `<interfaces xmlns="urn:ietf:params:xml:ns:yang:ietf-interfaces" xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type">
  <interface><name>eth0</name><type>ianaift:ethernetCsmacd</type><enabled>true</enabled>
  <ipv4 xmlns="urn:ietf:params:xml:ns:yang:ietf-ip"><mtu>1500</mtu><address><ip>192.0.2.1</ip><prefix-length>24</prefix-length></address></ipv4>
  </interface></interfaces>`;
  const doc = decodeXml(tree, xml, { kind: 'data' });
  const json = encodeJson(doc, { indent: 2 });
  console.log(json);
  console.log(encodeXml(decodeJson(tree, json), { indent: 2 }));
});
