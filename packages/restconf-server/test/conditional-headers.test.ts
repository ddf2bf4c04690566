import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { memoryChangeClock } from '../src/change-clock.js';
import { checkRead, checkWrite } from '../src/conditional.js';
import { toRestconfErrors } from '../src/error-body.js';
import { RestconfError } from '../src/errors.js';
import { exampleSchema } from './harness.js';

function req(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe('conditional headers', () => {
  test('a weak tag matches its strong form for If-None-Match', () => {
    const clock = memoryChangeClock();
    expect(checkRead(req({ 'if-none-match': `W/${clock.etag()}` }), clock)).toBe('not-modified');
  });

  test('a list of tags matches when one of them is current', () => {
    const clock = memoryChangeClock();
    expect(() => checkWrite(req({ 'if-match': `"x-1", ${clock.etag()}` }), clock)).not.toThrow();
  });

  test('If-Match: * lets an edit through', () => {
    expect(() => checkWrite(req({ 'if-match': '*' }), memoryChangeClock())).not.toThrow();
  });

  test('an unparsable date is ignored', () => {
    expect(checkRead(req({ 'if-modified-since': 'yesterday-ish' }), memoryChangeClock())).toBe('ok');
  });

  test('If-Modified-Since equal to Last-Modified answers 304 in the second of the change', () => {
    let t = 1_700_000_000_500;
    const clock = memoryChangeClock(() => t);
    t += 2000;
    clock.changed();
    const header = clock.lastModified().toUTCString();
    expect(checkRead(req({ 'if-modified-since': header }), clock)).toBe('not-modified');
  });

  test('If-Modified-Since answers 200 when its date was also sent for the state before a change', () => {
    let t = 1_700_000_000_500;
    const clock = memoryChangeClock(() => t);
    const header = clock.lastModified().toUTCString();
    clock.changed();
    // Same whole second as the header the client holds: the change must not be hidden by a 304.
    expect(checkRead(req({ 'if-modified-since': header }), clock)).toBe('ok');
    // The next second the current state has a later date: the old one is modified, the new one not.
    t += 1000;
    expect(checkRead(req({ 'if-modified-since': header }), clock)).toBe('ok');
    expect(checkRead(req({ 'if-modified-since': clock.lastModified().toUTCString() }), clock)).toBe(
      'not-modified',
    );
  });

  test('Last-Modified never goes past now, and moves one second at most past a sent date', () => {
    let t = 1_700_000_000_500;
    const clock = memoryChangeClock(() => t);
    const sent = clock.lastModified().getTime();
    clock.changed();
    expect(clock.lastModified().getTime()).toBe(sent);
    t += 1000;
    expect(clock.lastModified().getTime()).toBe(sent + 1000);
  });

  test('If-Unmodified-Since of the second of a change is refused until that second is over', () => {
    let t = 1_700_000_000_500;
    const clock = memoryChangeClock(() => t);
    clock.changed();
    const header = { 'if-unmodified-since': clock.lastModified().toUTCString() };
    expect(() => checkWrite(req(header), clock)).toThrow(RestconfError);
    t += 1000;
    expect(() => checkWrite(req(header), clock)).not.toThrow();
  });

  test('the tag changes with every recorded change', () => {
    const clock = memoryChangeClock();
    const a = clock.etag();
    clock.changed();
    expect(clock.etag()).not.toBe(a);
  });

  test('any header values give ok, not-modified or a 412 RestconfError', () => {
    const header = fc.option(fc.string({ maxLength: 200 }), { nil: undefined });
    fc.assert(
      fc.property(header, header, header, header, (im, inm, ims, ius) => {
        const headers: Record<string, string> = {};
        if (im !== undefined) headers['if-match'] = im;
        if (inm !== undefined) headers['if-none-match'] = inm;
        if (ims !== undefined) headers['if-modified-since'] = ims;
        if (ius !== undefined) headers['if-unmodified-since'] = ius;
        for (const check of [
          () => checkRead(req(headers), memoryChangeClock()),
          () => checkWrite(req(headers), memoryChangeClock()),
        ]) {
          try {
            check();
          } catch (error) {
            expect(RestconfError.isInstance(error)).toBe(true);
            expect((error as RestconfError).status).toBe(412);
          }
        }
      }),
    );
  });
});

describe('error translation', () => {
  test('anything thrown becomes at least one RestconfError with an HTTP status', async () => {
    const schema = await exampleSchema();
    fc.assert(
      fc.property(fc.anything(), (thrown) => {
        const errors = toRestconfErrors(thrown, schema);
        expect(errors.length).toBeGreaterThan(0);
        for (const e of errors) {
          expect(RestconfError.isInstance(e)).toBe(true);
          expect(e.status).toBeGreaterThanOrEqual(400);
        }
      }),
    );
  });

  test('an unexpected failure is 500 operation-failed without its details', async () => {
    const [e] = toRestconfErrors(new TypeError('secret internals'), await exampleSchema());
    expect(e).toMatchObject({ status: 500, errorTag: 'operation-failed', message: 'internal error' });
  });
});
