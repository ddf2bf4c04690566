import { describe, expect, test } from 'vitest';
import { errorsJson, errorsXml, MAX_ERROR_TEXT } from '../src/error-body.js';
import { RestconfError } from '../src/errors.js';

const HUGE = 'x'.repeat(1_000_000);
const error = new RestconfError('BODY_MISMATCH', `unknown element ${HUGE}`, {
  errorTag: 'unknown-element',
  errorPath: { json: `/m:${HUGE}`, xml: `/m:${HUGE}` },
  errorInfo: { 'bad-element': HUGE },
});

describe('error bodies bound the text they echo', () => {
  test('a JSON errors body cuts each field and says how long it was', () => {
    const body = errorsJson([error]);
    expect(body.length).toBeLessThan(4 * MAX_ERROR_TEXT);
    expect(body).toContain(`... (${HUGE.length} characters)`);
  });

  test('an XML errors body cuts each field and says how long it was', () => {
    const body = errorsXml([error]);
    expect(body.length).toBeLessThan(4 * MAX_ERROR_TEXT);
    expect(body).toContain(
      `<bad-element>${'x'.repeat(MAX_ERROR_TEXT)}... (${HUGE.length} characters)</bad-element>`,
    );
  });

  test('text within the bound is written whole', () => {
    const short = new RestconfError('BODY_MISMATCH', 'unknown element nope', { errorTag: 'unknown-element' });
    expect(errorsJson([short])).toContain('"error-message":"unknown element nope"');
  });
});
