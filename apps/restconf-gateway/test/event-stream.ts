import { expect } from 'vitest';

/** An open SSE response (`headers` added to the GET); `until` reads it until the text matches. */
export async function listen(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { ...headers, Accept: 'text/event-stream' } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let text = '';
  return {
    async until(pattern: RegExp): Promise<string> {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString('utf8');
      }
      return text;
    },
    close: () => reader.cancel(),
  };
}
