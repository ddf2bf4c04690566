import {
  childElement,
  escapeXmlAttribute,
  escapeXmlText,
  innerXml,
  readXmlDocument as parseXml,
  replaceNonXmlChars,
} from '@yangkit/xml';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { connectStream } from '../src/client.js';
import { NetconfError, NetconfRpcError } from '../src/errors.js';
import { replyData, scanReply } from '../src/reply.js';
import { BASE, fakeServer } from './helpers.js';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as NetconfError).code;
  }
  return undefined;
}

/** Parses XML content and serializes it again, so two spellings of the same content compare equal. */
function normalized(content: string): string {
  return innerXml(parseXml(`<w>${content}</w>`));
}

const REPLY = `<?xml version="1.0" encoding="UTF-8"?>
<nc:rpc-reply message-id="42" xmlns:nc="${BASE}" xmlns:if="urn:if">
  <nc:data xmlns:t="urn:t">
    <if:interfaces a='1 &amp; 2'><if:name>e&lt;0</if:name><![CDATA[<raw>]]><!-- note --></if:interfaces>
    <t:top/>
  </nc:data>
</nc:rpc-reply>`;

describe('scanReply', () => {
  test('reads the message-id of the reply', () => {
    expect(scanReply(REPLY)?.messageId).toBe('42');
  });

  test('reports ok only for <ok/> in the base namespace', () => {
    expect(scanReply(`<rpc-reply xmlns="${BASE}"><ok/></rpc-reply>`)?.ok).toBe(true);
    expect(scanReply(`<rpc-reply xmlns="${BASE}"><ok xmlns="urn:x"/></rpc-reply>`)?.ok).toBe(false);
  });

  test('gives the reply content with the same meaning as innerXml of the full parse', () => {
    expect(normalized(scanReply(REPLY)?.xml ?? '')).toBe(normalized(innerXml(parseXml(REPLY)).trim()));
  });

  test('pushes the declarations of rpc-reply and data down onto each child of data', () => {
    expect(scanReply(REPLY)?.dataXml).toBe(
      `<if:interfaces a='1 &amp; 2' xmlns:nc="${BASE}" xmlns:if="urn:if" xmlns:t="urn:t"><if:name>e&lt;0</if:name><![CDATA[<raw>]]><!-- note --></if:interfaces>\n    <t:top xmlns:nc="${BASE}" xmlns:if="urn:if" xmlns:t="urn:t"/>`,
    );
  });

  test('keeps a declaration a child makes itself instead of the inherited one', () => {
    const scanned = scanReply(`<rpc-reply xmlns="${BASE}"><data><a xmlns="urn:a"/></data></rpc-reply>`);
    expect(scanned?.dataXml).toBe('<a xmlns="urn:a"/>');
  });

  test('gives no data content for a reply without data', () => {
    expect(scanReply(`<rpc-reply xmlns="${BASE}"><ok/></rpc-reply>`)?.dataXml).toBeUndefined();
  });

  test('leaves a reply holding rpc-error to the full parse', () => {
    expect(scanReply(`<rpc-reply xmlns="${BASE}"><rpc-error/></rpc-reply>`)).toBeUndefined();
  });

  test('leaves a message other than rpc-reply in the base namespace to the full parse', () => {
    expect(scanReply(`<notification xmlns="urn:n"/>`)).toBeUndefined();
    expect(scanReply('<rpc-reply xmlns="urn:other"/>')).toBeUndefined();
  });

  test('refuses a DOCTYPE with XML_FORBIDDEN', () => {
    expect(code(() => scanReply(`<!DOCTYPE r [<!ENTITY x "y">]><rpc-reply xmlns="${BASE}"/>`))).toBe(
      'XML_FORBIDDEN',
    );
  });

  test('refuses a processing instruction with XML_FORBIDDEN', () => {
    expect(code(() => scanReply(`<rpc-reply xmlns="${BASE}"><data><?php x ?></data></rpc-reply>`))).toBe(
      'XML_FORBIDDEN',
    );
  });

  test('refuses an undefined entity reference deep in the data with XML_FORBIDDEN', () => {
    expect(
      code(() => scanReply(`<rpc-reply xmlns="${BASE}"><data><a><b>&x;</b></a></data></rpc-reply>`)),
    ).toBe('XML_FORBIDDEN');
  });

  test('refuses a character reference to an invalid code point', () => {
    expect(
      code(() => scanReply(`<rpc-reply xmlns="${BASE}"><data><a><b>&#0;</b></a></data></rpc-reply>`)),
    ).toBe('XML_PARSE');
  });

  test('refuses mismatched tags deep in the data', () => {
    expect(code(() => scanReply(`<rpc-reply xmlns="${BASE}"><data><a><b></a></b></data></rpc-reply>`))).toBe(
      'XML_PARSE',
    );
  });

  test('refuses an end tag without a start tag', () => {
    expect(code(() => scanReply(`<rpc-reply xmlns="${BASE}"/></>`))).toBe('XML_PARSE');
  });

  test('refuses a second root element and text outside the root', () => {
    expect(code(() => scanReply(`<rpc-reply xmlns="${BASE}"/><x/>`))).toBe('XML_PARSE');
    expect(code(() => scanReply(`<rpc-reply xmlns="${BASE}"/>x`))).toBe('XML_PARSE');
  });

  test('refuses an unclosed element', () => {
    expect(code(() => scanReply(`<rpc-reply xmlns="${BASE}"><data>`))).toBe('XML_PARSE');
  });

  test('refuses < inside an attribute value', () => {
    expect(code(() => scanReply(`<rpc-reply xmlns="${BASE}"><data><a v="<"/></data></rpc-reply>`))).toBe(
      'XML_PARSE',
    );
  });

  test('refuses nesting beyond maxDepth', () => {
    const deep = `<rpc-reply xmlns="${BASE}">${'<a>'.repeat(10)}${'</a>'.repeat(10)}</rpc-reply>`;
    expect(code(() => scanReply(deep, { maxDepth: 10 }))).toBe('XML_PARSE');
    expect(scanReply(deep, { maxDepth: 11 })).toBeDefined();
  });

  test('refuses a message longer than maxSize', () => {
    expect(code(() => scanReply(`<rpc-reply xmlns="${BASE}"/>`, { maxSize: 10 }))).toBe('XML_PARSE');
  });
});

const nameArb = fc.constantFrom('a', 'b', 'x:c', 'constructor', 'if:name');
const textArb = fc.string({ maxLength: 8 });
interface Tree {
  name: string;
  text: string;
  attr: string;
  children: Tree[];
}
function treeOfDepth(depth: number): fc.Arbitrary<Tree> {
  const children: fc.Arbitrary<Tree[]> =
    depth === 0 ? fc.constant([]) : fc.array(treeOfDepth(depth - 1), { maxLength: 3 });
  return fc.record({ name: nameArb, text: textArb, attr: textArb, children });
}
// Characters XML 1.0 forbids, which the generated strings may hold, are replaced first.
function render(t: Tree): string {
  const attr = escapeXmlAttribute(replaceNonXmlChars(t.attr));
  return `<${t.name} v="${attr}">${escapeXmlText(replaceNonXmlChars(t.text))}${t.children.map(render).join('')}</${t.name}>`;
}

describe('properties', () => {
  test('the scanned data content means what innerXml of the parsed <data> means', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: 0 }).chain(() => treeOfDepth(3)),
          { maxLength: 3 },
        ),
        (trees) => {
          const content = trees.map(render).join('');
          const reply = `<rpc-reply xmlns="${BASE}" xmlns:x="urn:x" xmlns:if="urn:if" message-id="1"><data>${content}</data></rpc-reply>`;
          const data = childElement(parseXml(reply), 'data')!;
          expect(normalized(scanReply(reply)?.dataXml ?? '')).toBe(normalized(innerXml(data).trim()));
        },
      ),
    );
  });

  test('any input is either scanned or refused with NetconfError', () => {
    const tokens = fc.constantFrom(
      '<',
      '>',
      '/',
      'a',
      '=',
      '"',
      "'",
      '&',
      ';',
      '!',
      '?',
      '[',
      ']',
      '-',
      ' ',
      ':',
    );
    fc.assert(
      fc.property(fc.array(tokens, { maxLength: 60 }), (parts) => {
        try {
          scanReply(parts.join(''));
        } catch (error) {
          expect(NetconfError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('nothing the scan accepts is forbidden by the full parse', () => {
    const tokens = fc.constantFrom(
      '<a>',
      '</a>',
      '<!DOCTYPE a>',
      '<?pi?>',
      '<!--c-->',
      '<![CDATA[x]]>',
      '&lt;',
      'x',
    );
    fc.assert(
      fc.property(fc.array(tokens, { maxLength: 12 }), (parts) => {
        const text = `<rpc-reply xmlns="${BASE}">${parts.join('')}</rpc-reply>`;
        if (code(() => scanReply(text)) === undefined) expect(code(() => parseXml(text))).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });
});

describe('a session reading replies above fullParseLimit', () => {
  test('returns get data with the reply namespaces pushed down', async () => {
    const { client } = fakeServer({
      handler: () => '<data xmlns:if="urn:if"><if:interfaces><if:interface/></if:interfaces></data>',
    });
    const session = await connectStream(client, { fullParseLimit: 0 });
    expect(await session.get()).toBe(
      `<if:interfaces xmlns="${BASE}" xmlns:if="urn:if"><if:interface/></if:interfaces>`,
    );
  });

  test('parses the reply element on first access', async () => {
    const { client } = fakeServer({ handler: () => '<data><n>1</n></data>' });
    const session = await connectStream(client, { fullParseLimit: 0 });
    const reply = await session.rpc('<get/>');
    expect(reply.messageId).toBe('1');
    expect(reply.xml).toBe(`<data xmlns="${BASE}"><n>1</n></data>`);
    expect(childElement(reply.element, 'data')?.ns).toBe(BASE);
  });

  test('still rejects a reply holding rpc-error with NetconfRpcError', async () => {
    const { client } = fakeServer({
      handler: () =>
        '<rpc-error><error-type>application</error-type><error-tag>data-exists</error-tag><error-severity>error</error-severity></rpc-error>',
    });
    const session = await connectStream(client, { fullParseLimit: 0 });
    await expect(session.commit()).rejects.toBeInstanceOf(NetconfRpcError);
  });

  test('ends the session when a large reply carries a DOCTYPE', async () => {
    const { client, server } = fakeServer({ handler: () => undefined });
    const session = await connectStream(client, { fullParseLimit: 0 });
    server.send(
      `<!DOCTYPE r [<!ENTITY x "y">]><rpc-reply xmlns="${BASE}" message-id="1"><data>&x;</data></rpc-reply>`,
    );
    expect((await session.closed).error?.code).toBe('XML_FORBIDDEN');
  });
});

describe('a session reading a large reply', () => {
  const BIG = `<data>${Array.from({ length: 40_000 }, (_, i) => `<n xmlns="urn:n">${i}</n>`).join('')}</data>`;

  test('reads it in slices: other work runs between its arrival and its answer', async () => {
    const { client, server } = fakeServer({ handler: () => undefined });
    const session = await connectStream(client);
    const reply = session.rpc('<get/>');
    await new Promise((resolve) => setImmediate(resolve));
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    server.send(`<rpc-reply xmlns="${BASE}" message-id="1">${BIG}</rpc-reply>`);
    setImmediate(count);
    const data = replyData(await reply);
    counting = false;
    expect(typeof data === 'string' && data.endsWith('<n xmlns="urn:n">39999</n>')).toBe(true);
    // Scanned in one run, the reply would be answered within a turn or two of its arrival.
    expect(turns).toBeGreaterThan(3);
  });

  test('keeps the order of the messages that come while it is read', async () => {
    const { client, server } = fakeServer({ handler: () => undefined });
    const session = await connectStream(client);
    const seen: string[] = [];
    session.on('notification', () => seen.push('notification'));
    const big = session.rpc('<get/>').then(() => seen.push('big reply'));
    const small = session.rpc('<commit/>').then(() => seen.push('small reply'));
    await new Promise((resolve) => setImmediate(resolve));
    server.send(`<rpc-reply xmlns="${BASE}" message-id="1">${BIG}</rpc-reply>`);
    server.send(
      `<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>2026-01-01T00:00:00Z</eventTime><e xmlns="urn:e"/></notification>`,
    );
    server.send(`<rpc-reply xmlns="${BASE}" message-id="2"><ok/></rpc-reply>`);
    // Handled as they came: the notification is emitted before either reply's callbacks run (they
    // run as promise jobs), the small reply only after the large one is read.
    await Promise.all([big, small]);
    expect(seen).toEqual(['notification', 'big reply', 'small reply']);
  });

  test('ends the session at a fault found in a later slice', async () => {
    const { client, server } = fakeServer({ handler: () => undefined });
    const session = await connectStream(client);
    const reply = session.rpc('<get/>');
    server.send(`<rpc-reply xmlns="${BASE}" message-id="1">${BIG.slice(0, -7)}</rpc-reply>`);
    await expect(reply).rejects.toBeInstanceOf(NetconfError);
    expect((await session.closed).reason).toBe('protocol-error');
  });
});

describe('replyData', () => {
  const handler = () => '<data xmlns:if="urn:if"><if:interfaces><if:interface/></if:interfaces></data>';

  test('gives the text slice of a large reply, without parsing it into elements', async () => {
    const { client } = fakeServer({ handler });
    const session = await connectStream(client, { fullParseLimit: 0 });
    const reply = await session.rpc('<get/>');
    expect(replyData(reply)).toBe(
      `<if:interfaces xmlns="${BASE}" xmlns:if="urn:if"><if:interface/></if:interfaces>`,
    );
  });

  test('gives the elements of a reply parsed on arrival', async () => {
    const { client } = fakeServer({ handler });
    const session = await connectStream(client);
    const data = replyData(await session.rpc('<get/>'));
    expect(Array.isArray(data) && data.map((e) => [e.local, e.ns])).toEqual([['interfaces', 'urn:if']]);
  });

  test('is undefined for a reply without data', async () => {
    const { client } = fakeServer({ handler: () => '<ok/>' });
    const session = await connectStream(client);
    expect(replyData(await session.rpc('<commit/>'))).toBeUndefined();
  });
});
