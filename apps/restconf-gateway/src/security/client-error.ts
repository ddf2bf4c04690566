import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { dataMediaType, errorsBody, RestconfError } from '@yangkit/restconf-server';
import type { RefusalEncoding } from './refusal.js';

/** What Node's HTTP/1 parser reports (`clientError`), as the RESTCONF error it is answered with. */
function errorOf(code: string | undefined): RestconfError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new RestconfError('REQUEST_INVALID', 'the request header fields are too large', {
        errorTag: 'too-big',
        reason: 'header-too-large',
      });
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new RestconfError('BODY_TOO_LARGE', 'the chunk extensions of the request body are too large', {
        errorTag: 'too-big',
      });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new RestconfError('REQUEST_INVALID', 'the request did not arrive in time', {
        errorTag: 'operation-failed',
        reason: 'request-timeout',
      });
    default:
      return new RestconfError('REQUEST_INVALID', 'the request is not well-formed HTTP/1.1', {
        errorTag: 'malformed-message',
      });
  }
}

/**
 * A `clientError` listener (node:http) that answers what the HTTP/1 parser refused (a malformed
 * request line or header, header fields too large, a request that timed out) with an
 * `ietf-restconf:errors` body, where Node would send a bare status, and closes the connection. No
 * header of a request that failed to parse can be trusted, so the body is in the default encoding.
 */
export function clientErrorAnswer(encoding: RefusalEncoding): (error: Error, socket: Duplex) => void {
  const as = encoding.defaultEncoding ?? 'json';
  return (error, socket) => {
    const code = (error as NodeJS.ErrnoException).code;
    // Nothing can be written on a connection the client reset, nor inside a response already begun.
    const begun = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (code === 'ECONNRESET' || !socket.writable || begun === true) {
      socket.destroy();
      return;
    }
    const answer = errorOf(code);
    const body = errorsBody([answer], as);
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
        `Content-Type: ${dataMediaType(as)}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-cache\r\nConnection: close\r\n\r\n' +
        body,
      () => socket.destroy(),
    );
  };
}
