#!/usr/bin/env node
import { GatewayError } from './errors.js';
import { helpText } from './flags.js';
import { startGateway } from './gateway.js';
import { createLogger } from './logger.js';
import { optionsFromArgs } from './options.js';
import { addUserCommand } from './security/add-user-command.js';

/** `restconf-gateway [--name=value ...]`: see `--help`. */
async function main(argv: readonly string[]): Promise<void> {
  if (argv[0] === 'add-user') {
    process.stdout.write(await addUserCommand(argv.slice(1), process.stdin));
    return;
  }
  let command: ReturnType<typeof optionsFromArgs>;
  try {
    command = optionsFromArgs(argv);
  } catch (error) {
    fail(error);
    return;
  }
  if (command.help) {
    process.stdout.write(`${helpText()}\n`);
    return;
  }
  const log = createLogger(command.options.logLevel ?? 'info', command.options.logFormat);
  // Signal handlers go in before the start, so a signal that arrives while it finishes (after
  // "serving RESTCONF at" is logged) still stops the gateway cleanly once it is up.
  let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
  let stopSignal: string | undefined;
  const stop = (running: NonNullable<typeof gateway>, signal: string): void => {
    log.info(`${signal}: stopping`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  // The signals that end event streams and their NETCONF sessions cleanly (the spec's SSE table).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGUSR1'] as const)
    process.on(signal, () => {
      if (stopSignal !== undefined) {
        // A second signal while the start still waits (on a NETCONF server, say) gives up at once.
        if (gateway === undefined) process.exit(1);
        return;
      }
      stopSignal = signal;
      if (gateway !== undefined) stop(gateway, signal);
    });
  try {
    gateway = await startGateway(command.options, { logger: log });
  } catch (error) {
    fail(error);
    return;
  }
  if (stopSignal !== undefined) stop(gateway, stopSignal);
}

function fail(error: unknown): void {
  const known = GatewayError.isInstance(error);
  const cause = known && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  process.stderr.write(
    `restconf-gateway: ${error instanceof Error ? error.message : String(error)}${cause}\n`,
  );
  if (known && error.exitCode === 2) process.stderr.write('Try --help.\n');
  process.exitCode = known ? error.exitCode : 1;
}

main(process.argv.slice(2)).catch(fail);
