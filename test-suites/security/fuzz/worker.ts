import { parentPort, workerData } from 'node:worker_threads';
import { startEmbedded } from '@yangkit/restconf-gateway';
import type { SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { makeCredentials } from '../test/credentials.js';
import { checkRequest, gatewayFigures, http1Sender, http2Sender, type Send } from '../test/gateway-check.js';
import { startServer } from '../test/harness.js';
import { request } from '../test/requests.js';
import { errorSignature } from './findings.js';
import {
  GATEWAY_TARGETS,
  type Job,
  PARSER_INPUT_BOUND_MS,
  type Progress,
  type WorkerMessage,
} from './protocol.js';
import { shrink } from './shrink.js';
import { parserTarget } from './targets.js';

const BATCH = 200;

/** Shared with the run: [0] counts inputs started, so the run sees a worker stuck inside one. */
const heartbeat = new Int32Array(workerData.heartbeat as SharedArrayBuffer);
/** The input being tried, as JSON, for the run to keep when the worker is stuck. */
const current = new Uint8Array(workerData.current as SharedArrayBuffer);
const encoder = new TextEncoder();

function starting(input: unknown): void {
  Atomics.add(heartbeat, 0, 1);
  const { written } = encoder.encodeInto(JSON.stringify(input) ?? 'null', current.subarray(4));
  new DataView(current.buffer).setUint32(0, written);
}

function post(message: WorkerMessage): void {
  parentPort!.postMessage(message);
}

let schema: SchemaTree | undefined;

async function exampleSchema(): Promise<SchemaTree> {
  if (schema === undefined) {
    const setup = await startEmbedded({});
    schema = setup.schema;
    await setup.close();
  }
  return schema;
}

async function runParser(job: Job): Promise<Progress> {
  const target = parserTarget(job.target);
  const tree = await exampleSchema();
  const progress: Progress = { tried: 0, refused: 0, slowestMs: 0 };
  const seen = new Set<string>();
  const deadline = Date.now() + job.seconds * 1000;
  let lastReport = Date.now();
  const outcome = (input: unknown): unknown => {
    try {
      target.run(input, tree);
      return undefined;
    } catch (error) {
      return target.expected(error) ? undefined : error;
    }
  };
  // A slow input is tried once more: a pause of the collector or a busy machine is no hang.
  const slowAgain = (input: unknown): boolean => {
    const again = performance.now();
    outcome(input);
    return performance.now() - again > PARSER_INPUT_BOUND_MS;
  };
  for (let batch = 0; Date.now() < deadline && progress.tried < job.maxInputs; batch++) {
    for (const input of fc.sample(target.input, { numRuns: BATCH, seed: job.seed + batch })) {
      starting(input);
      const started = performance.now();
      let failure: unknown;
      try {
        target.run(input, tree);
      } catch (error) {
        if (target.expected(error)) progress.refused++;
        else failure = error;
      }
      const ms = performance.now() - started;
      progress.tried++;
      progress.slowestMs = Math.max(progress.slowestMs, Math.round(ms));
      if (failure !== undefined) {
        const signature = errorSignature(failure);
        if (!seen.has(signature)) {
          seen.add(signature);
          const small = shrink(input, (c) => {
            const e = outcome(c);
            return e !== undefined && errorSignature(e) === signature;
          });
          const detail = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure);
          post({
            type: 'finding',
            finding: { target: job.target, kind: 'crash', signature, detail, input: small },
          });
        }
      } else if (ms > PARSER_INPUT_BOUND_MS && slowAgain(input)) {
        post({
          type: 'finding',
          finding: {
            target: job.target,
            kind: 'hang',
            signature: `${Math.round(ms)} ms`,
            detail: `one input took ${Math.round(ms)} ms (bound ${PARSER_INPUT_BOUND_MS} ms)`,
            input,
          },
        });
      }
      if (progress.tried >= job.maxInputs) break;
    }
    if (Date.now() - lastReport > 1000) {
      lastReport = Date.now();
      post({ type: 'progress', progress: { ...progress } });
    }
  }
  return progress;
}

async function runGateway(job: Job): Promise<Progress> {
  const http2 = job.target === 'gateway-http2';
  const creds = http2 ? makeCredentials({}, 1024) : undefined;
  const server = await startServer(
    creds === undefined ? {} : { tlsCert: creds.tlsCert, tlsKey: creds.tlsKey },
  );
  const h2 = creds === undefined ? undefined : http2Sender(server, creds.ca);
  const send: Send = h2?.send ?? http1Sender(server);
  const figures = gatewayFigures();
  const progress: Progress = { tried: 0, refused: 0, slowestMs: 0, gateway: figures };
  const deadline = Date.now() + job.seconds * 1000;
  let lastReport = Date.now();
  try {
    for (let batch = 0; Date.now() < deadline && progress.tried < job.maxInputs; batch++) {
      for (const r of fc.sample(request, { numRuns: BATCH, seed: job.seed + batch })) {
        starting(r);
        const finding = await checkRequest(server, send, r, figures);
        progress.tried = figures.tried + figures.unsendable;
        progress.refused = figures.rejected;
        progress.slowestMs = figures.slowestMs;
        if (finding !== undefined) {
          post({
            type: 'finding',
            finding: {
              target: job.target,
              kind: finding.kind,
              signature: `${finding.kind} ${finding.request.method} ${finding.detail.replace(/\d+/g, 'N').slice(0, 80)}`,
              detail: finding.detail,
              input: finding.request,
            },
          });
        }
        if (Date.now() - lastReport > 1000) {
          lastReport = Date.now();
          post({ type: 'progress', progress: { ...progress, gateway: { ...figures } } });
        }
        if (progress.tried >= job.maxInputs || Date.now() >= deadline) break;
      }
    }
  } finally {
    h2?.close();
    await server.close();
    creds?.remove();
  }
  return { ...progress, gateway: { ...figures } };
}

parentPort!.on('message', (job: Job) => {
  const run = (GATEWAY_TARGETS as readonly string[]).includes(job.target) ? runGateway : runParser;
  run(job).then(
    (progress) => post({ type: 'done', progress }),
    (error: unknown) => {
      // The job itself failed (the gateway did not start): reported as a crash of the target.
      post({
        type: 'finding',
        finding: {
          target: job.target,
          kind: 'crash',
          signature: errorSignature(error),
          detail: `the job failed: ${(error as Error).stack ?? String(error)}`,
          input: null,
        },
      });
      post({ type: 'done', progress: { tried: 0, refused: 0, slowestMs: 0 } });
    },
  );
});
