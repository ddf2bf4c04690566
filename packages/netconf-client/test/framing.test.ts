import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { splitAt } from '../../../test-support/split.js';
import { NetconfError } from '../src/errors.js';
import { createFramer, encodeMessage, encodeMessagePiece, type FramingMode } from '../src/framing.js';

function collect(mode: FramingMode, maxMessageBytes?: number) {
  const messages: string[] = [];
  const errors: NetconfError[] = [];
  const framer = createFramer({
    mode,
    onMessage: (m) => messages.push(m),
    onError: (e) => errors.push(e),
    ...(maxMessageBytes !== undefined && { maxMessageBytes }),
  });
  return { framer, messages, errors };
}

function feedText(framer: ReturnType<typeof createFramer>, text: string): void {
  framer.feed(Buffer.from(text));
}

describe('end-of-message framing (base:1.0)', () => {
  test('delivers each message ended by ]]>]]>', () => {
    const { framer, messages } = collect('eom');
    feedText(framer, '<a/>]]>]]><b/>]]>]]>');
    expect(messages).toEqual(['<a/>', '<b/>']);
  });

  test('finds a marker split across three chunks', () => {
    const { framer, messages } = collect('eom');
    for (const part of ['<a/>]]', '>]', ']>']) feedText(framer, part);
    expect(messages).toEqual(['<a/>']);
  });

  test('keeps ] characters that precede the marker', () => {
    const { framer, messages } = collect('eom');
    feedText(framer, '<a>]]]]></a>]]]>]]>');
    expect(messages).toEqual(['<a>]]]]></a>]']);
  });

  test('holds an unterminated message until its marker arrives', () => {
    const { framer, messages } = collect('eom');
    feedText(framer, '<a/>');
    expect(messages).toEqual([]);
    feedText(framer, ']]>]]>');
    expect(messages).toEqual(['<a/>']);
  });

  test('decodes a multibyte character split between chunks', () => {
    const { framer, messages } = collect('eom');
    const bytes = Buffer.from('<a>é€</a>]]>]]>');
    framer.feed(bytes.subarray(0, 4));
    framer.feed(bytes.subarray(4));
    expect(messages).toEqual(['<a>é€</a>']);
  });

  test('refuses a message above maxMessageBytes with MESSAGE_TOO_LARGE', () => {
    const { framer, messages, errors } = collect('eom', 8);
    feedText(framer, '<aaaaaaaaaaaa/>');
    expect(messages).toEqual([]);
    expect(errors.map((e) => e.code)).toEqual(['MESSAGE_TOO_LARGE']);
  });
});

describe('chunked framing (base:1.1)', () => {
  test('joins the chunks of one message', () => {
    const { framer, messages } = collect('chunked');
    feedText(framer, '\n#4\n<rpc\n#18\n message-id="102"\n\n#1\n>\n##\n');
    expect(messages).toEqual(['<rpc message-id="102"\n>']);
  });

  test('parses the RFC 6242 section 4.2 example', () => {
    const { framer, messages } = collect('chunked');
    const example =
      '\n#4\n<rpc\n#18\n message-id="102"\n\n#79\n     xmlns="urn:ietf:params:xml:ns:netconf:base:1.0">\n  <close-session/>\n</rpc>\n##\n';
    feedText(framer, example);
    expect(messages).toEqual([
      '<rpc message-id="102"\n     xmlns="urn:ietf:params:xml:ns:netconf:base:1.0">\n  <close-session/>\n</rpc>',
    ]);
  });

  test('reports a chunk-size with a leading zero as FRAMING', () => {
    const { framer, errors } = collect('chunked');
    feedText(framer, '\n#04\nabcd\n##\n');
    expect(errors.map((e) => e.code)).toEqual(['FRAMING']);
  });

  test('reports a chunk-size above 4294967295 as FRAMING', () => {
    const { framer, errors } = collect('chunked');
    feedText(framer, '\n#4294967296\n');
    expect(errors.map((e) => e.code)).toEqual(['FRAMING']);
  });

  test('accepts the largest chunk-size header', () => {
    const { framer, errors } = collect('chunked');
    feedText(framer, '\n#4294967295\nabc');
    expect(errors).toEqual([]);
  });

  test('reports end-of-chunks without any chunk as FRAMING', () => {
    const { framer, errors } = collect('chunked');
    feedText(framer, '\n##\n');
    expect(errors.map((e) => e.code)).toEqual(['FRAMING']);
  });

  test('reports bytes between messages as FRAMING', () => {
    const { framer, errors } = collect('chunked');
    feedText(framer, '\n#1\na\n##\nxyz');
    expect(errors.map((e) => e.code)).toEqual(['FRAMING']);
  });

  test('ignores input after an error until reset', () => {
    const { framer, messages, errors } = collect('chunked');
    feedText(framer, 'garbage');
    feedText(framer, '\n#1\na\n##\n');
    expect(messages).toEqual([]);
    framer.reset();
    feedText(framer, '\n#1\na\n##\n');
    expect(messages).toEqual(['a']);
    expect(errors).toHaveLength(1);
  });

  test('refuses chunks adding up beyond maxMessageBytes', () => {
    const { framer, errors } = collect('chunked', 5);
    feedText(framer, '\n#3\nabc\n#3\ndef\n##\n');
    expect(errors.map((e) => e.code)).toEqual(['MESSAGE_TOO_LARGE']);
  });
});

describe('mode switch', () => {
  test('applies chunked framing to the bytes after the hello in the same chunk', () => {
    const messages: string[] = [];
    const framer = createFramer({
      onMessage(m) {
        messages.push(m);
        if (m === '<hello/>') framer.setMode('chunked');
      },
      onError: (e) => {
        throw e;
      },
    });
    feedText(framer, '<hello/>]]>]]>\n#6\n<rpc/>\n##\n');
    expect(messages).toEqual(['<hello/>', '<rpc/>']);
    expect(framer.mode).toBe('chunked');
  });

  test('refuses an unknown mode with INVALID_ARGUMENT', () => {
    const { framer } = collect('eom');
    expect(() => framer.setMode('lines' as FramingMode)).toThrow(NetconfError);
  });
});

describe('encodeMessage', () => {
  test('appends ]]>]]> in eom mode', () => {
    expect(encodeMessage('<a/>', 'eom').toString()).toBe('<a/>]]>]]>');
  });

  test('counts UTF-8 bytes in the chunk header', () => {
    expect(encodeMessage('<a>é</a>', 'chunked').toString()).toBe('\n#9\n<a>é</a>\n##\n');
  });

  test('refuses an empty chunked message', () => {
    expect(() => encodeMessage('', 'chunked')).toThrow(NetconfError);
  });
});

const xmlish = fc.string({
  unit: fc.constantFrom('<', '>', ']', '#', '\n', 'a', 'é', ' ', '1'),
  minLength: 1,
  maxLength: 40,
});

describe('properties', () => {
  test('any split of a chunked stream yields the same messages', () => {
    fc.assert(
      fc.property(
        fc.array(xmlish, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (msgs, cuts) => {
          const bytes = Buffer.concat(msgs.map((m) => encodeMessage(m, 'chunked')));
          const { framer, messages, errors } = collect('chunked');
          for (const part of splitAt(bytes, cuts)) framer.feed(part);
          expect(errors).toEqual([]);
          expect(messages).toEqual(msgs);
        },
      ),
    );
  });

  test('any split of an eom stream yields the same messages', () => {
    // EOM framing cannot carry a payload in which the marker would be found earlier.
    const noMarker = xmlish.filter((m) => `${m}]]>]]>`.indexOf(']]>]]>') === m.length);
    fc.assert(
      fc.property(
        fc.array(noMarker, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (msgs, cuts) => {
          const bytes = Buffer.concat(msgs.map((m) => encodeMessage(m, 'eom')));
          const { framer, messages, errors } = collect('eom');
          for (const part of splitAt(bytes, cuts)) framer.feed(part);
          expect(errors).toEqual([]);
          expect(messages).toEqual(msgs);
        },
      ),
    );
  });

  test('a message framed in pieces, in either mode, is read as the message the pieces make', () => {
    const noMarker = xmlish.filter((m) => !m.includes(']'));
    fc.assert(
      fc.property(
        fc.constantFrom<FramingMode>('eom', 'chunked'),
        fc.array(noMarker, { minLength: 1, maxLength: 6 }),
        (mode, pieces) => {
          const bytes = Buffer.concat(
            pieces.map((p, i) => encodeMessagePiece(p, mode, i === pieces.length - 1)),
          );
          const { framer, messages, errors } = collect(mode);
          framer.feed(bytes);
          expect(errors).toEqual([]);
          expect(messages).toEqual([pieces.join('')]);
        },
      ),
    );
  });

  test('arbitrary bytes never throw and only report NetconfError', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<FramingMode>('eom', 'chunked'),
        fc.uint8Array({ maxLength: 200 }),
        (mode, bytes) => {
          const { framer, errors } = collect(mode, 64);
          framer.feed(bytes);
          for (const e of errors) expect(e).toBeInstanceOf(NetconfError);
        },
      ),
    );
  });

  test('corrupted chunk headers give a FRAMING error, never a wrong message', () => {
    fc.assert(
      fc.property(
        xmlish,
        fc.constantFrom('\n#0\n', '\n#x\n', '#1\n', '\n1\n', '\n#\n', '\n#12a\n'),
        (msg, bad) => {
          const { framer, messages, errors } = collect('chunked');
          framer.feed(Buffer.concat([Buffer.from(bad), encodeMessage(msg, 'chunked')]));
          expect(messages).toEqual([]);
          expect(errors.map((e) => e.code)).toEqual(['FRAMING']);
        },
      ),
    );
  });
});
