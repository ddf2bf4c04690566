import { writeFigures } from '../test/figures.js';
import type { GatewayFigures } from '../test/gateway-check.js';
import type { Finding } from './findings.js';
import { PARSER_INPUT_BOUND_MS } from './protocol.js';
import { PARSER_TARGETS } from './targets.js';

/** One distinct finding of a target: how often it came, and the corpus file that keeps it. */
export interface KeptFinding {
  readonly finding: Finding;
  count: number;
  readonly file: string | undefined;
}

/** What the run counted for one target. */
export interface TargetFigures {
  tried: number;
  refused: number;
  slowestMs: number;
  gateway?: GatewayFigures;
  /** By kind and signature. */
  readonly findings: Map<string, KeptFinding>;
}

/** The whole run. */
export interface RunFigures {
  readonly seconds: number;
  readonly workers: number;
  readonly seed: number;
  /** The flag that bounded the run (`--time=...` or `--count=...`). */
  readonly budget: string;
  readonly peakRssMb: number;
  readonly targets: ReadonlyMap<string, TargetFigures>;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

function distinct(f: TargetFigures, ...kinds: Finding['kind'][]): number {
  return [...f.findings.values()].filter((k) => kinds.includes(k.finding.kind)).length;
}

/** Writes the `fuzz-run` block of the "Security figures" in test-suites/README.md. */
export function writeRunReport(run: RunFigures): void {
  const rows = [...run.targets].filter(([, f]) => f.gateway === undefined);
  const gateways = [...run.targets].filter(([, f]) => f.gateway !== undefined);
  const total = [...run.targets.values()].reduce((n, f) => n + f.tried, 0);
  const findings = [...run.targets.values()].flatMap((f) => [...f.findings.values()]);
  const lines = [
    `### \`pnpm fuzz\`: ${fmt(total)} inputs in ${fmt(run.seconds)} s (${run.budget}, ${run.workers} workers, seed ${run.seed})`,
    '',
    `Peak RSS of the run (all workers and gateways in one process): ${fmt(run.peakRssMb)} MB.`,
    '',
    `In process: a crash is anything but the package's own typed error (a TypeError, RangeError, stack overflow); a hang is one input taking over ${fmt(PARSER_INPUT_BOUND_MS)} ms, or a worker stuck for 30 s.`,
    '',
    '| target | inputs tried | refused with a typed error | crashes (distinct) | hangs | slowest input |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      ([name, f]) =>
        `| ${PARSER_TARGETS.find((t) => t.name === name)?.description ?? name} | ${fmt(f.tried)} | ${fmt(f.refused)} | ${distinct(f, 'crash')} | ${distinct(f, 'hang')} | ${fmt(f.slowestMs)} ms |`,
    ),
  ];
  if (gateways.length > 0) {
    lines.push(
      '',
      'The running gateway (embedded backend, example modules), one request at a time per worker; HTTP/2 over TLS. Running and candidate are read over NETCONF before and after each rejected request.',
      '',
      '| target | requests sent | not sendable by the client | accepted (2xx/3xx) | rejected (4xx) | 5xx | 4xx without an errors body | no answer within 5 s | datastore changed by a rejected request | slowest answer |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...gateways.map(([name, f]) => {
        const g = f.gateway!;
        return `| ${name === 'gateway-http2' ? 'HTTP/2' : 'HTTP/1.1'} | ${fmt(g.tried)} | ${fmt(g.unsendable)} | ${fmt(g.accepted)} | ${fmt(g.rejected)} | ${fmt(g.serverErrors)} | ${fmt(g.withoutErrorsBody)} | ${fmt(g.noAnswer)} | ${fmt(g.changedByRejected)} | ${fmt(g.slowestMs)} ms |`;
      }),
    );
  }
  lines.push(
    '',
    ...(findings.length === 0
      ? ['Nothing found.']
      : [
          'Findings (each kept as a corpus file that `test/fuzz-corpus.test.ts` replays, except datastore changes):',
          '',
          ...findings.map(
            (k) =>
              `- ${k.finding.target}, ${k.finding.kind} (${fmt(k.count)}×): ${k.finding.detail.replace(/\s+/g, ' ').slice(0, 160)}${k.file === undefined ? '' : ` (\`${k.file}\`)`}`,
          ),
        ]),
  );
  writeFigures('fuzz-run', lines.join('\n'));
}
