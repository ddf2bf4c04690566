import { GatewayError, startGateway } from '@yangkit/restconf-gateway';
import { pino } from 'pino';
import { describe, expect, test } from 'vitest';

// Issue 12: the app refuses to listen beyond loopback without authentication and TLS unless
// explicitly told to (--insecure).
const silent = { logger: pino({ level: 'silent' }) };

async function refusal(options: Parameters<typeof startGateway>[0]): Promise<GatewayError> {
  const error = await startGateway({ port: 0, ...options }, silent).then(
    async (g) => {
      await g.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(GatewayError.isInstance(error)).toBe(true);
  return error as GatewayError;
}

describe('listening beyond loopback', () => {
  test('is refused without authentication', async () => {
    const error = await refusal({ host: '0.0.0.0' });
    expect(error.code).toBe('INVALID_FLAG');
    expect(error.message).toContain('without authentication');
  });

  test('is refused with authentication but without TLS', async () => {
    const error = await refusal({ host: '0.0.0.0', httpUser: 'admin', httpPassword: 'secret' });
    expect(error.code).toBe('INVALID_FLAG');
    expect(error.message).toContain('without TLS');
  });

  test('is allowed with --insecure, and still asks for the credentials', async () => {
    const g = await startGateway(
      { port: 0, host: '0.0.0.0', httpUser: 'admin', httpPassword: 'secret', insecure: true },
      silent,
    );
    try {
      const port = new URL(g.url).port;
      const r = await fetch(`http://127.0.0.1:${port}/restconf/data`);
      expect(r.status).toBe(401);
    } finally {
      await g.close();
    }
  });
});
