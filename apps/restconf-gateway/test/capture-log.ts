import { type Logger, pino } from 'pino';

/** A pino logger whose JSON lines are kept in `lines`, and a wait for the next audit line. */
export interface CapturedLog {
  readonly logger: Logger;
  readonly lines: Record<string, unknown>[];
  /** Resolves with the first audit line not yet taken (audit lines follow the response). */
  nextAudit(): Promise<Record<string, unknown>>;
}

/** Captures the log of a gateway at level info. */
export function captureLog(): CapturedLog {
  const lines: Record<string, unknown>[] = [];
  let taken = 0;
  let wake: (() => void) | undefined;
  const logger = pino(
    { level: 'info' },
    {
      write(text: string) {
        lines.push(JSON.parse(text) as Record<string, unknown>);
        wake?.();
      },
    },
  );
  return {
    logger,
    lines,
    async nextAudit() {
      for (;;) {
        const audits = lines.filter((l) => l.audit === true);
        if (audits.length > taken) return audits[taken++]!;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}
