import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { interfacesXml } from '../bench/interfaces-document';
import { main, outputWriter, readPieces } from '../src/cli';
import { FIXTURES, SHARED_YANG, TEST_YANG } from './helpers';

async function run(argv: string[], files: Record<string, string | Iterable<string>> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    readFile: (f) => files[f] ?? readFileSync(f, 'utf8'),
  });
  return { code, stdout, stderr };
}

const base = ['--path', TEST_YANG, '--path', SHARED_YANG];
const cases = path.join(FIXTURES, 'cases');

describe('yang-convert', () => {
  test('converts XML to pretty-printed JSON', async () => {
    const dir = path.join(cases, 'rfc7951-module-names');
    const r = await run([
      ...base,
      '--module',
      'example-foomod',
      '--module',
      'example-barmod',
      '--from',
      'xml',
      '--to',
      'json',
      path.join(dir, 'input.xml'),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(path.join(dir, 'expected.json'), 'utf8'));
  });

  test('converts a file read in pieces as it converts the file read whole', async () => {
    const dir = path.join(cases, 'rfc7951-module-names');
    const file = path.join(dir, 'input.xml');
    const text = readFileSync(file, 'utf8');
    const argv = [
      ...base,
      '-m',
      'example-foomod',
      '-m',
      'example-barmod',
      '--from',
      'xml',
      '--to',
      'json',
      file,
    ];
    for (const to of ['json', 'xml']) {
      argv[argv.length - 2] = to;
      const pieces = text.match(/[\s\S]{1,7}/g)!;
      expect(await run(argv, { [file]: pieces[Symbol.iterator]() })).toEqual(await run(argv));
    }
  });

  test('converts JSON to XML with one element per line', async () => {
    const dir = path.join(cases, 'rfc8040-rpc-input');
    const r = await run([
      ...base,
      '-m',
      'example-ops',
      '--from',
      'json',
      '--to',
      'xml',
      '--kind',
      'rpc',
      '--operation',
      'example-ops:reboot',
      path.join(dir, 'input.json'),
    ]);
    expect([r.code, r.stdout]).toEqual([0, readFileSync(path.join(dir, 'expected.xml'), 'utf8')]);
  });

  test('converts an rpc reply', async () => {
    const dir = path.join(cases, 'rfc8040-rpc-output');
    const r = await run([
      ...base,
      '-m',
      'example-ops',
      '--from',
      'xml',
      '--to',
      'json',
      '--kind',
      'reply',
      '--operation',
      'example-ops:get-reboot-info',
      path.join(dir, 'input.xml'),
    ]);
    expect([r.code, r.stdout]).toEqual([0, readFileSync(path.join(dir, 'expected.json'), 'utf8')]);
  });

  describe('refuses what yanglint refuses', () => {
    const convert = (doc: string) =>
      run([...base, '-m', 'codec-types', '--from', 'json', '--to', 'xml', 'doc.json'], { 'doc.json': doc });

    test('both cases of one choice', async () => {
      const r = await convert('{"codec-types:settings":{"tcp-port":22,"tls-port":6513}}');
      expect([r.code, r.stderr]).toEqual([
        1,
        'yang-convert: choice "transport" holds nodes of two cases, "tcp" and "tls" (/codec-types:settings/tls-port)\n  error-tag bad-element at /codec-types:settings/tls-port\n',
      ]);
    });

    test('an object naming a member twice', async () => {
      const r = await convert('{"codec-types:settings":{"mode":"a","mode":"b"}}');
      expect([r.code, r.stderr]).toEqual([
        1,
        'yang-convert: malformed JSON: member "mode" appears twice in one object (offset 36)\n  error-tag malformed-message\n',
      ]);
    });

    test('an instance-identifier naming no instance', async () => {
      const r = await convert(
        '{"codec-types:settings":{"mode":"a"},"codec-types:types":{"target":"/codec-types:settings/retries"}}',
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        'error-tag data-missing, error-app-tag instance-required at /codec-types:types/target',
      );
    });
  });

  test('exits 1 and names the node on a validation error', async () => {
    const r = await run([...base, '-m', 'example-foomod', '--from', 'json', '--to', 'xml', 'doc.json'], {
      'doc.json': '{"example-foomod:top": {"foo": 300}}',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"foo"');
    expect(r.stderr).toContain('error-tag invalid-value at /example-foomod:top/foo');
  });

  test('exits 1 when a mandatory rpc input is missing', async () => {
    const r = await run(
      [
        ...base,
        '-m',
        'codec-types',
        '--from',
        'json',
        '--to',
        'xml',
        '--kind',
        'rpc',
        '--operation',
        'codec-types:ping',
        'in.json',
      ],
      {
        'in.json': '{"codec-types:input": {}}',
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"host"');
  });

  test('exits 2 on a usage error', async () => {
    const r = await run(['--from', 'yaml', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('usage: yang-convert');
  });

  test('exits 2 when a module cannot be found', async () => {
    const r = await run([...base, '-m', 'no-such-module', '--from', 'json', '--to', 'xml', 'x.json'], {
      'x.json': '{}',
    });
    expect(r.code).toBe(2);
  });
});

describe('yang-convert without --operation', () => {
  const jukebox = [...base, '-m', 'example-jukebox', '--kind', 'rpc'];
  const actions = [...base, '-m', 'example-actions', '--kind', 'rpc'];
  const playInput = '{\n  "example-jukebox:input": {\n    "playlist": "Foo",\n    "song-number": 1\n  }\n}\n';
  const resetInput = '{\n  "example-actions:input": {\n    "delay": 5\n  }\n}\n';
  const play =
    '<play xmlns="http://example.com/ns/example-jukebox"><playlist>Foo</playlist><song-number>1</song-number></play>';
  const resetPath =
    '<interfaces xmlns="https://example.com/ns/example-actions"><interface><name>eth0</name>' +
    '<reset><delay>5</delay></reset></interface></interfaces>';

  test('takes the rpc from the operation element of an XML document', async () => {
    const r = await run([...jukebox, '--from', 'xml', '--to', 'json', 'in.xml'], { 'in.xml': play });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, playInput, '']);
  });

  test('takes the rpc from inside the NETCONF <rpc> envelope', async () => {
    const r = await run([...jukebox, '--from', 'xml', '--to', 'json', 'in.xml'], {
      'in.xml': `<rpc xmlns="urn:ietf:params:xml:ns:netconf:base:1.0" message-id="1">${play}</rpc>`,
    });
    expect([r.code, r.stdout]).toEqual([0, playInput]);
  });

  test('takes the rpc from the operation member of a JSON document', async () => {
    const r = await run([...jukebox, '--from', 'json', '--to', 'json', 'in.json'], {
      'in.json': '{"example-jukebox:play": {"playlist": "Foo", "song-number": 1}}',
    });
    expect([r.code, r.stdout]).toEqual([0, playInput]);
  });

  test('takes the action from the XML data nodes leading to it', async () => {
    const r = await run([...actions, '--from', 'xml', '--to', 'json', 'in.xml'], { 'in.xml': resetPath });
    expect([r.code, r.stdout]).toEqual([0, resetInput]);
  });

  test('takes the action from inside the NETCONF <rpc><action> envelope', async () => {
    const r = await run([...actions, '--from', 'xml', '--to', 'json', 'in.xml'], {
      'in.xml': `<rpc xmlns="urn:ietf:params:xml:ns:netconf:base:1.0" message-id="1"><action xmlns="urn:ietf:params:xml:ns:yang:1">${resetPath}</action></rpc>`,
    });
    expect([r.code, r.stdout]).toEqual([0, resetInput]);
  });

  test('takes the action from the JSON data nodes leading to it', async () => {
    const r = await run([...actions, '--from', 'json', '--to', 'json', 'in.json'], {
      'in.json': '{"example-actions:interfaces": {"interface": [{"name": "eth0", "reset": {"delay": 5}}]}}',
    });
    expect([r.code, r.stdout]).toEqual([0, resetInput]);
  });

  test('exits 2 asking for --operation when the document is RESTCONF input', async () => {
    const r = await run([...jukebox, '--from', 'json', '--to', 'xml', 'in.json'], { 'in.json': playInput });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('give --operation');
  });

  test('checks the input of an operation it found', async () => {
    const r = await run([...jukebox, '--from', 'xml', '--to', 'json', 'in.xml'], {
      'in.xml': '<play xmlns="http://example.com/ns/example-jukebox"><playlist>Foo</playlist></play>',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"song-number"');
  });
});

describe('yang-convert --kind notification', () => {
  const events = [...base, '-m', 'example-mod', '--kind', 'notification'];
  const event =
    '<event xmlns="http://example.com/event/1.0"><event-class>fault</event-class><severity>major</severity></event>';
  const eventJson =
    '{\n  "example-mod:event": {\n    "event-class": "fault",\n    "severity": "major"\n  }\n}\n';

  test('reads the event without its envelope and writes it the same way', async () => {
    const r = await run([...events, '--from', 'xml', '--to', 'json', 'n.xml'], { 'n.xml': event });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, eventJson, '']);
  });

  test('reads a JSON event without its envelope', async () => {
    const r = await run([...events, '--from', 'json', '--to', 'xml', 'n.json'], { 'n.json': eventJson });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '<event xmlns="http://example.com/event/1.0">\n  <event-class>fault</event-class>\n  <severity>major</severity>\n</event>\n',
    );
  });

  test('keeps the eventTime of the NETCONF envelope', async () => {
    const r = await run([...events, '--from', 'xml', '--to', 'json', 'n.xml'], {
      'n.xml': `<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>2013-12-21T00:01:00Z</eventTime>${event}</notification>`,
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      'ietf-restconf:notification': {
        eventTime: '2013-12-21T00:01:00Z',
        'example-mod:event': { 'event-class': 'fault', severity: 'major' },
      },
    });
  });

  test('refuses two events in one document', async () => {
    const r = await run([...events, '--from', 'xml', '--to', 'json', 'n.xml'], { 'n.xml': event + event });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('one event element');
  });
});

describe('yang-convert output', () => {
  const interfaces = [
    '--path',
    path.resolve(__dirname, '../../yang-schema/yang'),
    '--path',
    path.join(SHARED_YANG, 'rfc7223'),
    '-m',
    'ietf-interfaces',
    '-m',
    'ietf-ip',
    '-m',
    'iana-if-type',
    '--kind',
    'config',
    '--from',
    'xml',
    '--to',
    'json',
    'interfaces.xml',
  ];
  const files = { 'interfaces.xml': interfacesXml(1000) };

  test('waits while the output is full before writing more', async () => {
    const whole = await run(interfaces, files);
    let out = '';
    let full = false;
    let waits = 0;
    const code = await main(interfaces, {
      // Full after every write, drained a turn later: a pipe whose reader is slow.
      stdout: (t) => {
        if (full) throw new Error('written to while full');
        out += t;
        full = true;
        waits++;
        return turn().then(() => {
          full = false;
        });
      },
      stderr: () => undefined,
      readFile: (f) => files[f as keyof typeof files],
    });
    expect(code).toBe(0);
    expect(out).toBe(whole.stdout);
    // The document is written in several chunks, each waited for.
    expect(waits).toBeGreaterThan(3);
  });

  test('reads standard input in pieces as it is decoded, and leaves it open', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yang-convert-'));
    const file = path.join(dir, 'stdin.xml');
    writeFileSync(file, files['interfaces.xml']);
    // A descriptor opened here stands for standard input (the command's is descriptor 0).
    const stdin = openSync(file, 'r');
    try {
      const pieces = [...readPieces('-', stdin)];
      expect(pieces.length).toBeGreaterThan(2);
      expect(pieces.join('')).toBe(files['interfaces.xml']);
      expect(fstatSync(stdin).size).toBe(files['interfaces.xml'].length);
    } finally {
      closeSync(stdin);
      rmSync(dir, { recursive: true });
    }
  });

  test('refuses text that is not UTF-8 as a malformed document', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yang-convert-'));
    const file = path.join(dir, 'latin1.xml');
    // "é" in ISO-8859-1: one byte that begins no UTF-8 character, where a decoder would put U+FFFD.
    writeFileSync(
      file,
      Buffer.from(files['interfaces.xml'].replace('uplink 3<', 'uplink \u00e9<'), 'latin1'),
    );
    try {
      let stderr = '';
      const code = await main([...interfaces.slice(0, -1), file], {
        stdout: () => undefined,
        stderr: (t) => {
          stderr += t;
        },
        readFile: (f) => readPieces(f),
      });
      expect(code).toBe(1);
      const offset = files['interfaces.xml'].indexOf('uplink 3<') + 'uplink '.length;
      expect(stderr).toBe(
        `yang-convert: malformed XML: the text is not UTF-8: the bytes at offset ${offset} (0xE9 0x3C 0x2F) are not a UTF-8 character\n  error-tag malformed-message\n`,
      );
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  test('a full stream gives a promise of its drain', async () => {
    const written: string[] = [];
    let release: (() => void) | undefined;
    const slow = new Writable({
      highWaterMark: 4,
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        release = done;
      },
    });
    const write = outputWriter(slow, () => undefined);
    const full = write('more than four bytes');
    expect(full).toBeInstanceOf(Promise);
    let drained = false;
    void full!.then(() => {
      drained = true;
    });
    await turn();
    expect(drained).toBe(false);
    release!();
    await full;
    expect(written).toEqual(['more than four bytes']);
    expect(write('x')).toBeUndefined();
  });

  test('a reader that closes the pipe ends the command quietly; other write errors are thrown', async () => {
    const failing = (code: string) =>
      new Writable({
        write(_chunk, _encoding, done) {
          done(Object.assign(new Error(`write ${code}`), { code }));
        },
      });
    let closed = 0;
    outputWriter(failing('EPIPE'), () => closed++)('text');
    await turn();
    expect(closed).toBe(1);
    const other = failing('EIO');
    outputWriter(other, () => closed++);
    const listener = other.listeners('error')[0] as (error: Error) => void;
    expect(() => listener(Object.assign(new Error('write EIO'), { code: 'EIO' }))).toThrow('write EIO');
    expect(closed).toBe(1);
  });
});
