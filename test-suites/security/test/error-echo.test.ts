import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, errorsBody, type Server, startServer } from './harness.js';

// Error bodies quote the request (element names, values, paths): each quoted text is cut, so a
// huge name cannot make a huge error body.
const MAX_BODY = 16 * 1024 * 1024;
const NAME = `a${'b'.repeat(1024 * 1024)}`;
let s: Server;
beforeAll(async () => {
  s = await startServer({ maxBodyBytes: MAX_BODY });
});
afterAll(() => s.close());

describe('error bodies bound what they echo', () => {
  for (const accept of [DATA_JSON, DATA_XML]) {
    test(`a 1 MB unknown element name gets a small ${accept} error body`, async () => {
      const before = await s.snapshot();
      const r = await s.fetch('/restconf/data/example-jukebox:jukebox', {
        method: 'PUT',
        headers: { 'Content-Type': DATA_XML, Accept: accept },
        body: `<jukebox xmlns="http://example.com/ns/example-jukebox"><${NAME}/></jukebox>`,
      });
      expect(r.status).toBe(400);
      const text = await r.text();
      expect(errorsBody(text, r.headers.get('content-type'))).toBeDefined();
      expect(text.length).toBeLessThan(16 * 1024);
      expect(text).toMatch(/\.\.\. \(\d+ characters\)/);
      expect(await s.snapshot()).toBe(before);
    });
  }

  test('a 1 MB JSON member name gets a small error body', async () => {
    const r = await s.fetch('/restconf/data/example-jukebox:jukebox', {
      method: 'PUT',
      headers: { 'Content-Type': DATA_JSON, Accept: DATA_JSON },
      body: JSON.stringify({ 'example-jukebox:jukebox': { [NAME]: 1 } }),
    });
    expect(r.status).toBe(400);
    expect((await r.text()).length).toBeLessThan(16 * 1024);
  });
});
