import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020';
import { describe, expect, test } from 'vitest';
import { type OpenApiDocument, toOpenApi } from '../src/index';
import { EXAMPLE_MODULES, ROUTING_MODULES, schemaOf } from './helpers';

const DOC_ID = 'https://yangkit.invalid/openapi.json';

/** Every schema of the document compiled as JSON Schema 2020-12 (the OpenAPI 3.1 dialect), refs resolved. */
function compileEverySchema(doc: OpenApiDocument): number {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  ajv.addSchema({ ...(doc as object), $id: DOC_ID });
  let compiled = 0;
  for (const name of Object.keys(doc.components.schemas as object)) {
    ajv.getSchema(`${DOC_ID}#/components/schemas/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    compiled++;
  }
  return compiled;
}

async function expectValid(doc: OpenApiDocument): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(doc as unknown as Parameters<Validator['validate']>[0]);
  expect(result.errors ?? [], String(JSON.stringify(result.errors)).slice(0, 2000)).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe('3.1');
  // Every $ref resolves.
  expect(() => validator.resolveRefs()).not.toThrow();
  expect(compileEverySchema(doc)).toBeGreaterThan(0);
}

describe('the OpenAPI 3.1 schema accepts the document', () => {
  test('of the RFC 8040 example modules', async () => {
    await expectValid(toOpenApi(await schemaOf(EXAMPLE_MODULES)));
  });

  test('of ietf-interfaces, ietf-ip and ietf-routing with its IPv4 and IPv6 modules', async () => {
    await expectValid(toOpenApi(await schemaOf(ROUTING_MODULES)));
  });

  test.each(ROUTING_MODULES)('of module %s alone', async (module) => {
    await expectValid(toOpenApi(await schemaOf(ROUTING_MODULES), { modules: [module] }));
  });

  test('with security schemes and simple JSON names', async () => {
    await expectValid(
      toOpenApi(await schemaOf(EXAMPLE_MODULES), {
        security: { basic: true, mutualTls: true },
        simpleNames: true,
        serverUrl: 'https://device.example.com/restconf',
      }),
    );
  });
});

test('the checks refuse a document whose $ref leads nowhere', async () => {
  const doc = toOpenApi(await schemaOf(EXAMPLE_MODULES));
  const broken = JSON.parse(
    JSON.stringify(doc).replace(
      '"#/components/schemas/example-jukebox.jukebox"',
      '"#/components/schemas/nowhere"',
    ),
  );
  await expect(expectValid(broken)).rejects.toThrow();
});
