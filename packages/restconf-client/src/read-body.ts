import { RestconfClientError } from './errors.js';

/**
 * Reads a response body as UTF-8 text, stopping with `RESPONSE_TOO_LARGE` (and cancelling the
 * body) past `maxBytes`, so a huge or endless response cannot exhaust memory.
 */
export async function readBody(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let total = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new RestconfClientError('RESPONSE_TOO_LARGE', `response body exceeds ${maxBytes} bytes`);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
