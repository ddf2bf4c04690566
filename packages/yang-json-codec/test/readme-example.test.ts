import path from 'node:path';
import { loadSchema } from '@yangkit/yang-schema';
import { expect, test } from 'vitest';
import { CodecError, decodeJson, decodeXml, encodeJson, encodeXml, validate } from '../src/index';

const SHARED_YANG = path.resolve(__dirname, '../../../yang');

// The examples of README.md, verbatim apart from the expectations.
test('the README example converts XML to RFC 7951 JSON and back', async () => {
  const schema = await loadSchema({
    paths: [SHARED_YANG],
    modules: ['ietf-interfaces', 'ietf-ip', 'iana-if-type'],
  });

  const tree = decodeXml(
    schema,
    `<interfaces xmlns="urn:ietf:params:xml:ns:yang:ietf-interfaces"
                 xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type">
       <interface>
         <name>eth0</name>
         <type>ianaift:ethernetCsmacd</type>
         <ipv4 xmlns="urn:ietf:params:xml:ns:yang:ietf-ip"><mtu>1500</mtu></ipv4>
       </interface>
     </interfaces>`,
    { kind: 'data' },
  );
  const json = encodeJson(tree, { indent: 2 });
  expect(JSON.parse(json)).toEqual({
    'ietf-interfaces:interfaces': {
      interface: [{ name: 'eth0', type: 'iana-if-type:ethernetCsmacd', 'ietf-ip:ipv4': { mtu: 1500 } }],
    },
  });

  const back = encodeXml(decodeJson(schema, json), { indent: 2 });
  expect(back.split('\n')[0]).toBe('<interfaces xmlns="urn:ietf:params:xml:ns:yang:ietf-interfaces">');

  try {
    decodeJson(schema, {
      'ietf-interfaces:interfaces': { interface: [{ name: 'eth0', 'ietf-ip:ipv4': { mtu: 10 } }] },
    });
  } catch (e) {
    if (!CodecError.isInstance(e)) throw e;
    expect(e.errorTag).toBe('invalid-value');
    expect(e.errorPath?.json).toBe("/ietf-interfaces:interfaces/interface[name='eth0']/ietf-ip:ipv4/mtu");
  }

  const config = decodeJson(
    schema,
    { 'ietf-interfaces:interfaces': { interface: [{ name: 'eth1' }] } },
    { kind: 'config' },
  );
  const errors = validate(config);
  expect(errors.map((e) => `${e.errorTag} ${e.errorPath?.json}`)).toEqual([
    "missing-element /ietf-interfaces:interfaces/interface[name='eth1']/type",
  ]);
});
