import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Logger as HandlerLogger } from '@yangkit/restconf-server';
import { type Logger, pino } from 'pino';
import type * as PinoPrettyModule from 'pino-pretty';
import { GatewayError } from './errors.js';

/** How log lines look: JSON lines (pino) for programs, or text lines for people. */
export type LogFormat = 'json' | 'pretty';

/**
 * A pino logger writing to stderr (stdout stays free for the caller): text lines when `format`
 * is `pretty`, by default when stderr is a terminal, else JSON lines.
 */
export function createLogger(
  level: string,
  format: LogFormat = process.stderr.isTTY ? 'pretty' : 'json',
): Logger {
  const destination =
    format === 'json'
      ? pino.destination(2)
      : // "[12:00:01] INFO: message", then the other fields (of an audit line, say) as JSON.
        loadPinoPretty().PinoPretty({
          destination: 2,
          sync: true,
          translateTime: 'SYS:HH:MM:ss',
          ignore: 'pid,hostname,name,audit,method,target,status',
          singleLine: true,
        });
  return pino({ name: 'restconf-gateway', level }, destination);
}

/**
 * pino-pretty, required only for text lines: its modules cost some megabytes of memory that a
 * gateway logging JSON lines (a service, stderr not a terminal) never needs.
 */
function loadPinoPretty(): typeof PinoPrettyModule {
  return createRequire(import.meta.url)('pino-pretty') as typeof PinoPrettyModule;
}

/** Adapts pino to the handler's `Logger` (errors keep their stack under `err`). */
export function handlerLogger(log: Logger): HandlerLogger {
  return {
    debug: (message) => log.debug(message),
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
