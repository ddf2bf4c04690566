import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GatewayError } from '../src/errors.js';
import { FLAGS, helpText, parseFlags } from '../src/flags.js';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return GatewayError.isInstance(error) ? error.code : 'foreign';
  }
  return undefined;
}

describe('parseFlags', () => {
  test('reads the --name=value form', () => {
    expect(parseFlags(['--port=9000', '--restconf-default-encoding=xml'])).toEqual({
      port: 9000,
      'restconf-default-encoding': 'xml',
    });
  });

  test('reads a bare boolean as true', () => {
    expect(parseFlags(['--metrics'])).toEqual({ metrics: true });
  });

  test('reads an explicit boolean false', () => {
    expect(parseFlags(['--with-json-metadata=false'])).toEqual({ 'with-json-metadata': false });
  });

  test('reads --name value for a non-boolean flag', () => {
    expect(parseFlags(['--host', '::1'])).toEqual({ host: '::1' });
  });

  test('collects repeated list flags in order', () => {
    expect(parseFlags(['--module=a', '--path=x', '--module=b'])).toEqual({ module: ['a', 'b'], path: ['x'] });
  });

  test('rejects an unknown flag as bad usage', () => {
    expect(code(() => parseFlags(['--no-such-flag']))).toBe('INVALID_FLAG');
  });

  test('rejects a port outside 0..65535', () => {
    expect(code(() => parseFlags(['--port=70000']))).toBe('INVALID_FLAG');
  });

  test('rejects a value outside an enumeration', () => {
    expect(code(() => parseFlags(['--default-style=report-all-tagged']))).toBe('INVALID_FLAG');
  });

  test('rejects a boolean that is neither true nor false', () => {
    expect(code(() => parseFlags(['--metrics=yes']))).toBe('INVALID_FLAG');
  });

  test('rejects a single-valued flag given twice', () => {
    expect(code(() => parseFlags(['--port=1', '--port=2']))).toBe('INVALID_FLAG');
  });

  test('rejects a positional argument', () => {
    expect(code(() => parseFlags(['serve']))).toBe('INVALID_FLAG');
  });

  test('throws only its own error on any arguments', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom(...FLAGS.map((f) => `--${f.name}`)))),
        (argv) => {
          const c = code(() => parseFlags(argv));
          expect(c === undefined || c === 'INVALID_FLAG').toBe(true);
        },
      ),
    );
  });
});

describe('helpText', () => {
  test('documents every flag', () => {
    const help = helpText();
    for (const f of FLAGS) expect(help).toContain(`--${f.name}`);
  });

  test('names the spec defaults of the server parameters', () => {
    expect(helpText()).toMatch(/--restconf-default-encoding=json\|xml\n.*\(default json\)/);
  });
});
