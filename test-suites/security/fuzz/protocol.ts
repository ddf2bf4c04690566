import type { GatewayFigures } from '../test/gateway-check.js';
import type { Finding } from './findings.js';
import { PARSER_TARGETS } from './targets.js';

/** One slice of work: a target run until `seconds` have passed or `maxInputs` were tried. */
export interface Job {
  readonly target: string;
  readonly seconds: number;
  readonly maxInputs: number;
  readonly seed: number;
}

/** Counts a worker reports for the job it runs (the latest report replaces the one before). */
export interface Progress {
  tried: number;
  /** Inputs the parser refused with its own typed error (parsers), or requests rejected (gateway). */
  refused: number;
  slowestMs: number;
  gateway?: GatewayFigures;
}

/** Messages of a worker to the run. */
export type WorkerMessage =
  | { readonly type: 'progress'; readonly progress: Progress }
  | { readonly type: 'finding'; readonly finding: Finding }
  | { readonly type: 'done'; readonly progress: Progress };

/** Gateway targets: the running app over each HTTP version. */
export const GATEWAY_TARGETS = ['gateway-http1', 'gateway-http2'] as const;

/** Every target name, parsers first. */
export const TARGET_NAMES: readonly string[] = [...PARSER_TARGETS.map((t) => t.name), ...GATEWAY_TARGETS];

/** Longer than this for one parser input counts as a hang (the inputs are at most a few hundred kB). */
export const PARSER_INPUT_BOUND_MS = 3000;
