import type { JsonSchema } from '@yangkit/yang-json-codec';

/** Characters OpenAPI allows in a component name (OpenAPI 3.1 section 4.8.7.1). */
const UNSAFE = /[^A-Za-z0-9._-]/g;

/**
 * The `components.schemas` of a document, filled by content: a schema equal to one already kept
 * is referred to under the name it was kept with, so an object that groupings or augments repeat
 * at several places is described once.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly byContent = new Map<string, string>();

  /** A `$ref` to `schema`, kept under `name` (made unique and safe) unless an equal one is kept. */
  ref(name: string, schema: JsonSchema): JsonSchema {
    const content = JSON.stringify(schema);
    let kept = this.byContent.get(content);
    if (kept === undefined) {
      const base = name.replace(UNSAFE, '_');
      kept = base;
      for (let i = 2; Object.hasOwn(this.schemas, kept); i++) kept = `${base}-${i}`;
      this.schemas[kept] = schema;
      this.byContent.set(content, kept);
    }
    return { $ref: `#/components/schemas/${kept}` };
  }
}

/** The component name of a data path: `/example-jukebox:jukebox/library` -> `example-jukebox.jukebox.library`. */
export function componentName(dataPath: string): string {
  return dataPath.replace(/^\//, '').replace(/[:/]/g, '.');
}
