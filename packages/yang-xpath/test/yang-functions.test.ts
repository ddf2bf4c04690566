import { describe, expect, test } from 'vitest';
import {
  compileXPath,
  createXmlNavigator,
  parseXmlForXPath,
  type QualifiedName,
  type XmlNode,
  xmlNavigator,
  type YangNodeInfo,
} from '../src/index.js';

// RFC 7950 section 10 examples, over instance data written as NETCONF XML.
const EX = 'urn:example:ex';
const IF = 'urn:ietf:params:xml:ns:yang:ietf-interfaces';
const EXIF = 'urn:example:exif';

function first(root: XmlNode, expression: string, prefixes: Record<string, string> = { ex: EX }): XmlNode {
  const nodes = compileXPath(expression, { prefixes }).evaluateNodes(root, xmlNavigator);
  expect(nodes.length).toBeGreaterThan(0);
  return nodes[0]!;
}

describe('current() (RFC 7950 section 10.1.1)', () => {
  const data = parseXmlForXPath(`
    <data xmlns="${EX}">
      <interface><name>eth0</name><type>ethernet</type></interface>
      <interface><name>eth1</name><type>atm</type></interface>
      <mgmt><ifname>eth1</ifname></mgmt>
    </data>`);

  test('returns the initial context node inside predicates', () => {
    const ifname = first(data, '/ex:data/ex:mgmt/ex:ifname');
    const type = compileXPath('/ex:data/ex:interface[ex:name = current()]/ex:type', { prefixes: { ex: EX } });
    expect(type.evaluateString(ifname, xmlNavigator)).toBe('atm');
  });

  test('can be set apart from the context node', () => {
    const ifname = first(data, '/ex:data/ex:mgmt/ex:ifname');
    const expr = compileXPath('local-name(current())', {});
    expect(expr.evaluateString(data, xmlNavigator, { current: ifname })).toBe('ifname');
  });
});

describe('re-match() (RFC 7950 section 10.2.1)', () => {
  test('matches the RFC example', () => {
    const expr = compileXPath('re-match("1.22.333", "\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")');
    expect(expr.evaluate(parseXmlForXPath('<a/>'), xmlNavigator)).toBe(true);
  });

  test('anchors the pattern at both ends', () => {
    const root = parseXmlForXPath('<a/>');
    expect(compileXPath('re-match("x1.22.333", "\\d+\\.\\d+\\.\\d+")').evaluate(root, xmlNavigator)).toBe(
      false,
    );
    expect(compileXPath('re-match("abc", "b")').evaluate(root, xmlNavigator)).toBe(false);
  });

  test('counts the interfaces called eth0.<number>', () => {
    const data = parseXmlForXPath(`<data xmlns="${EX}">
      <interface><name>eth0.1</name></interface><interface><name>eth0.22</name></interface>
      <interface><name>eth0</name></interface><interface><name>eth0.x</name></interface></data>`);
    const expr = compileXPath('count(/ex:data/ex:interface[re-match(ex:name, "eth0\\.\\d+")])', {
      prefixes: { ex: EX },
    });
    expect(expr.evaluate(data, xmlNavigator)).toBe(2);
  });

  test('reports a pattern given at run time that is not an XSD regex', () => {
    const expr = compileXPath('re-match("a", string(/p))');
    const root = parseXmlForXPath('<p>(</p>');
    expect(() => expr.evaluate(root, xmlNavigator)).toThrow(
      expect.objectContaining({ code: 'INVALID_REGEX' }),
    );
  });
});

describe('deref() (RFC 7950 section 10.3.1)', () => {
  const data = parseXmlForXPath(`
    <data xmlns="${EX}">
      <interface><name>eth0</name><type>ethernet</type><enabled>false</enabled></interface>
      <interface><name>eth1</name><type>ethernet</type><enabled>true</enabled></interface>
      <mgmt-interface><name>eth1</name><type>ethernet</type></mgmt-interface>
    </data>`);
  // the paths of the RFC's module, unprefixed names in the module's own namespace
  const namePath = compileXPath('/data/interface/name', { defaultNamespace: EX });
  const typePath = compileXPath('/data/interface[name = current()/../name]/type', { defaultNamespace: EX });
  const nav = createXmlNavigator({
    schemaInfo(node): YangNodeInfo<XmlNode> | undefined {
      if (node.parent?.name !== 'mgmt-interface') return { baseType: 'string' };
      return { baseType: 'leafref', leafrefPath: node.name === 'name' ? namePath : typePath };
    },
  });
  const must = compileXPath('deref(.)/../enabled = "true"', { defaultNamespace: EX });

  test('follows a leafref to the nodes with the same value', () => {
    const name = first(data, '/ex:data/ex:mgmt-interface/ex:name');
    const targets = compileXPath('deref(.)', {}).evaluateNodes(name, nav);
    expect(targets).toHaveLength(1);
    expect(xmlNavigator.stringValue(targets[0]!.parent!)).toContain('eth1');
  });

  test('evaluates the RFC must expression on the management interface type', () => {
    const type = first(data, '/ex:data/ex:mgmt-interface/ex:type');
    expect(must.evaluateBoolean(type, nav)).toBe(true);
    const disabled = parseXmlForXPath(`
      <data xmlns="${EX}">
        <interface><name>eth0</name><type>ethernet</type><enabled>false</enabled></interface>
        <mgmt-interface><name>eth0</name><type>ethernet</type></mgmt-interface>
      </data>`);
    expect(must.evaluateBoolean(first(disabled, '/ex:data/ex:mgmt-interface/ex:type'), nav)).toBe(false);
  });

  test('follows an instance-identifier to the node it names', () => {
    const doc = parseXmlForXPath(`
      <data xmlns="${EX}">
        <interface><name>eth0</name><type>ethernet</type></interface>
        <ref>/ex:data/ex:interface[ex:name='eth0']/ex:type</ref>
      </data>`);
    const iiNav = createXmlNavigator({
      schemaInfo: (node) =>
        node.name === 'ref'
          ? { baseType: 'instance-identifier', instanceIdentifierPrefixes: new Map([['ex', EX]]) }
          : { baseType: 'string' },
    });
    const ref = first(doc, '/ex:data/ex:ref');
    expect(compileXPath('string(deref(.))').evaluate(ref, iiNav)).toBe('ethernet');
  });

  test('returns an empty node-set for other types', () => {
    const name = first(data, '/ex:data/ex:interface/ex:name');
    expect(compileXPath('deref(.)').evaluateNodes(name, nav)).toEqual([]);
  });

  test('refuses to guess without type information', () => {
    const name = first(data, '/ex:data/ex:mgmt-interface/ex:name');
    expect(() => compileXPath('deref(.)').evaluate(name, xmlNavigator)).toThrow(
      expect.objectContaining({ code: 'MISSING_SCHEMA_INFO' }),
    );
  });
});

describe('derived-from() and derived-from-or-self() (RFC 7950 section 10.4.1)', () => {
  // identity interface-type; ethernet: interface-type; fast-ethernet, gigabit-ethernet: ethernet
  const bases = new Map<string, string>([
    [`${EXIF} ethernet`, `${IF} interface-type`],
    [`${EXIF} fast-ethernet`, `${EXIF} ethernet`],
    [`${EXIF} gigabit-ethernet`, `${EXIF} ethernet`],
  ]);
  const dataPrefixes = new Map([
    ['if', IF],
    ['exif', EXIF],
  ]);
  function isDerivedFrom(value: string, base: QualifiedName, orSelf: boolean): boolean {
    const [prefix, name] = value.split(':') as [string, string];
    let id: string | undefined = `${dataPrefixes.get(prefix)} ${name}`;
    const target = `${base.namespace} ${base.name}`;
    if (!orSelf) id = bases.get(id);
    for (; id !== undefined; id = bases.get(id)) if (id === target) return true;
    return false;
  }
  const nav = createXmlNavigator({
    schemaInfo: (node) =>
      node.name === 'type' ? { baseType: 'identityref', isDerivedFrom } : { baseType: 'string' },
  });
  const data = parseXmlForXPath(`
    <interfaces xmlns="${IF}">
      <interface><name>eth0</name><type>exif:fast-ethernet</type></interface>
      <interface><name>eth1</name><type>exif:ethernet</type></interface>
      <interface><name>lo</name><type>if:interface-type</type></interface>
    </interfaces>`);
  const prefixes = { if: IF, exif: EXIF };
  const names = (expression: string) =>
    compileXPath(expression, { prefixes })
      .evaluateNodes(data, nav)
      .map((n) => xmlNavigator.stringValue(n));

  test('selects interfaces whose type is derived from ethernet', () => {
    expect(names('/if:interfaces/if:interface[derived-from(if:type, "exif:ethernet")]/if:name')).toEqual([
      'eth0',
    ]);
  });

  test('includes the identity itself with derived-from-or-self', () => {
    expect(
      names('/if:interfaces/if:interface[derived-from-or-self(if:type, "exif:ethernet")]/if:name'),
    ).toEqual(['eth0', 'eth1']);
  });

  test('is true when any node of the set qualifies', () => {
    const expr = compileXPath('derived-from(/if:interfaces/if:interface/if:type, "if:interface-type")', {
      prefixes,
    });
    expect(expr.evaluate(data, nav)).toBe(true);
  });

  test('evaluates the RFC when expression on each interface', () => {
    const when = compileXPath('derived-from(if:type, "exif:ethernet")', { prefixes });
    const interfaces = compileXPath('/if:interfaces/if:interface', { prefixes }).evaluateNodes(data, nav);
    expect(interfaces.map((i) => when.evaluateBoolean(i, nav))).toEqual([true, false, false]);
  });
});

describe('enum-value() (RFC 7950 section 10.5.1)', () => {
  const severities = ['cleared', 'indeterminate', 'minor', 'warning', 'major', 'critical'];
  const nav = createXmlNavigator({
    schemaInfo: (node) =>
      node.name === 'severity'
        ? {
            baseType: 'enumeration',
            enumValue: (name) => (severities.includes(name) ? severities.indexOf(name) + 1 : undefined),
          }
        : { baseType: 'string' },
  });
  const data = parseXmlForXPath(`
    <alarms xmlns="${EX}">
      <alarm><id>1</id><severity>minor</severity></alarm>
      <alarm><id>2</id><severity>critical</severity></alarm>
      <alarm><id>3</id><severity>major</severity></alarm>
    </alarms>`);

  test('selects the alarms of severity above major', () => {
    const expr = compileXPath('/ex:alarms/ex:alarm[enum-value(ex:severity) > 5]/ex:id', {
      prefixes: { ex: EX },
    });
    expect(expr.evaluateNodes(data, nav).map((n) => xmlNavigator.stringValue(n))).toEqual(['2']);
  });

  test('is NaN for a node that is not an enumeration and for an empty set', () => {
    const prefixes = { ex: EX };
    expect(compileXPath('enum-value(/ex:alarms/ex:alarm/ex:id)', { prefixes }).evaluate(data, nav)).toBeNaN();
    expect(compileXPath('enum-value(/ex:none)', { prefixes }).evaluate(data, nav)).toBeNaN();
  });
});

describe('bit-is-set() (RFC 7950 section 10.6.1)', () => {
  const nav = createXmlNavigator({
    schemaInfo: (node) => ({ baseType: node.name === 'flags' ? 'bits' : 'string' }),
  });
  const data = parseXmlForXPath(`
    <data xmlns="${EX}">
      <interface><name>a</name><flags>UP PROMISCUOUS</flags></interface>
      <interface><name>b</name><flags>UP</flags></interface>
      <interface><name>c</name><flags/></interface>
    </data>`);

  test('selects the interfaces with the PROMISCUOUS bit set', () => {
    const expr = compileXPath('/ex:data/ex:interface[bit-is-set(ex:flags, "PROMISCUOUS")]/ex:name', {
      prefixes: { ex: EX },
    });
    expect(expr.evaluateNodes(data, nav).map((n) => xmlNavigator.stringValue(n))).toEqual(['a']);
  });

  test('is false for a node that is not of type bits', () => {
    const expr = compileXPath('bit-is-set(/ex:data/ex:interface/ex:name, "a")', { prefixes: { ex: EX } });
    expect(expr.evaluate(data, nav)).toBe(false);
  });
});

describe('the must and augment-when usage examples of RFC 7950', () => {
  const opts = { defaultNamespace: EX };
  const ethernetMtu = compileXPath('ifType != "ethernet" or ifMTU = 1500', opts);
  const atmMtu = compileXPath('ifType != "atm" or (ifMTU <= 17966 and ifMTU >= 64)', opts);
  const iface = (type: string, mtu: string) =>
    parseXmlForXPath(`<interface xmlns="${EX}"><ifType>${type}</ifType><ifMTU>${mtu}</ifMTU></interface>`)
      .children[0]!;

  test('an Ethernet MTU must be 1500', () => {
    expect(ethernetMtu.evaluateBoolean(iface('ethernet', '1500'), xmlNavigator)).toBe(true);
    expect(ethernetMtu.evaluateBoolean(iface('ethernet', '9000'), xmlNavigator)).toBe(false);
    expect(ethernetMtu.evaluateBoolean(iface('atm', '9000'), xmlNavigator)).toBe(true);
  });

  test('an ATM MTU must be 64 .. 17966', () => {
    expect(atmMtu.evaluateBoolean(iface('atm', '64'), xmlNavigator)).toBe(true);
    expect(atmMtu.evaluateBoolean(iface('atm', '17967'), xmlNavigator)).toBe(false);
    expect(atmMtu.evaluateBoolean(iface('atm', 'x'), xmlNavigator)).toBe(false);
    expect(atmMtu.evaluateBoolean(iface('ethernet', '1'), xmlNavigator)).toBe(true);
  });

  test("the augment's when \"if:ifType='ds0'\" holds only on ds0 entries", () => {
    const data = parseXmlForXPath(`
      <interfaces xmlns="${IF}">
        <ifEntry><ifIndex>1</ifIndex><ifType>ds0</ifType></ifEntry>
        <ifEntry><ifIndex>2</ifIndex><ifType>ethernetCsmacd</ifType></ifEntry>
      </interfaces>`);
    const when = compileXPath("if:ifType='ds0'", { prefixes: { if: IF } });
    const entries = compileXPath('/if:interfaces/if:ifEntry', { prefixes: { if: IF } }).evaluateNodes(
      data,
      xmlNavigator,
    );
    expect(entries.map((e) => when.evaluateBoolean(e, xmlNavigator))).toEqual([true, false]);
  });
});
