import type { Logger as HandlerLogger } from '@yangkit/restconf-server';
import { type Logger, pino } from 'pino';

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
