import { closeSync, openSync } from 'node:fs';
import type { Logger as HandlerLogger } from '@yangkit/restconf-server';
import { type Logger, pino } from 'pino';
import { GatewayError } from './errors.js';

/** A pino logger writing JSON lines to stderr (stdout stays free for the caller). */
export function createLogger(level: string): Logger {
  return pino({ name: 'restconf-gateway', level }, pino.destination(2));
}

/** Adapts pino to the handler's `Logger` (errors keep their stack under `err`). */
export function handlerLogger(log: Logger): HandlerLogger {
  return {
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
    error: (message, error) =>
      error === undefined ? log.error(message) : log.error({ err: error }, message),
  };
}

/** An audit logger and how to flush and close its file. */
export interface AuditLogger {
  readonly log: Logger;
  close(): void;
}

/**
 * The audit logger: `{component: 'audit'}` lines of `log`, or, with `file` (`--audit-log`), a
 * logger of its own appending to that file at level info whatever `--log-level` says. Lines are
 * written synchronously so that none is lost when the process ends.
 */
export function createAuditLogger(log: Logger, file: string | undefined): AuditLogger {
  if (file === undefined) return { log: log.child({ component: 'audit' }), close: () => {} };
  try {
    closeSync(openSync(file, 'a', 0o600));
  } catch (error) {
    throw new GatewayError('FILE', `cannot append to --audit-log ${file}`, { cause: error });
  }
  const destination = pino.destination({ dest: file, append: true, sync: true });
  return {
    log: pino({ name: 'restconf-gateway', level: 'info', base: { component: 'audit' } }, destination),
    close: () => destination.end(),
  };
}
