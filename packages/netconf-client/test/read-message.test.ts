import { XmlError } from '@yangkit/xml';
import { describe, expect, test } from 'vitest';
import { NetconfError } from '../src/errors.js';
import { readMessage } from '../src/read-message.js';

function refusal(text: string): NetconfError {
  try {
    readMessage(text, {});
  } catch (error) {
    if (NetconfError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a NetconfError');
}

describe('readMessage', () => {
  test('reads one message into its element', () => {
    expect(readMessage('<?xml version="1.0"?>\n<hello xmlns="urn:x"/>', {}).ns).toBe('urn:x');
  });

  test('reports a message that is not well-formed as XML_PARSE, the reader error with its position as cause', () => {
    const e = refusal('<rpc-reply>\n<ok></rpc-reply>');
    expect(e.code).toBe('XML_PARSE');
    expect(XmlError.isInstance(e.cause) && [e.cause.line, e.cause.column]).toEqual([2, 5]);
    expect(e.message).toContain('line 2, column 5');
  });

  test('reports a DOCTYPE, an undeclared entity and a processing instruction as XML_FORBIDDEN', () => {
    for (const text of ['<!DOCTYPE a><a/>', '<a>&x;</a>', '<a><?pi?></a>'])
      expect(refusal(text).code).toBe('XML_FORBIDDEN');
  });

  test('reports a limit exceeded as XML_PARSE', () => {
    expect(() => readMessage('<a><b/></a>', { maxDepth: 1 })).toThrow(NetconfError);
  });
});
