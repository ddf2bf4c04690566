import { startEmbedded } from '@yangkit/restconf-gateway';
import type { SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readCorpus } from '../fuzz/findings.js';
import { GATEWAY_TARGETS } from '../fuzz/protocol.js';
import { PARSER_TARGETS, parserTarget } from '../fuzz/targets.js';
import { checkRequest, gatewayFigures, http1Sender } from './gateway-check.js';
import { type Server, startServer } from './harness.js';
import type { FuzzRequest } from './requests.js';

// The CI profile of `pnpm fuzz`: every input a run found breaking a property (kept under
// corpus/<target>/), replayed against the same target; and a short run of every parser target.
const corpus = readCorpus();
const parserInputs = corpus.filter((c) => !(GATEWAY_TARGETS as readonly string[]).includes(c.target));
const requests = corpus.filter((c) => (GATEWAY_TARGETS as readonly string[]).includes(c.target));
/** Generated inputs per parser target in the normal test run. */
const RUNS = Number(process.env.FUZZ_PARSER_RUNS ?? 300);

let schema: SchemaTree;
beforeAll(async () => {
  const setup = await startEmbedded({});
  schema = setup.schema;
  await setup.close();
});

/** What a target throws for `input` that is not its own typed error. */
function crashOf(target: string, input: unknown): unknown {
  const t = parserTarget(target);
  try {
    t.run(input, schema);
  } catch (error) {
    if (!t.expected(error)) return error;
  }
  return undefined;
}

describe('the corpus of parser inputs that once crashed or hung', () => {
  test.each(parserInputs.map((c) => [c.file, c] as const))(
    '%s parses or fails with a typed error',
    (_, c) => {
      expect(crashOf(c.target, c.input)).toBeUndefined();
    },
  );
});

describe('the parser fuzz targets', () => {
  test.each(PARSER_TARGETS.map((t) => [t.name, t] as const))(
    '%s throws only its typed errors on generated input',
    (_, t) => {
      fc.assert(
        fc.property(t.input, (input) => {
          expect(crashOf(t.name, input)).toBeUndefined();
        }),
        { numRuns: RUNS },
      );
    },
  );
});

describe.runIf(requests.length > 0)('the corpus of requests that once broke the gateway', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  test.each(requests.map((c) => [c.file, c] as const))(
    '%s is answered within the properties',
    async (_, c) => {
      const finding = await checkRequest(s, http1Sender(s), c.input as FuzzRequest, gatewayFigures());
      expect(finding).toBeUndefined();
    },
  );
});
