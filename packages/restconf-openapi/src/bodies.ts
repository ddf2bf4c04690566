import type { JsonSchema } from '@yangkit/yang-json-codec';
import { MEDIA } from './media.js';

type OpenApiObject = Record<string, unknown>;

/** The JSON name of a body's outer member: module-qualified unless the server writes simple names. */
export function outerName(simpleNames: boolean, module: string, name: string): string {
  return simpleNames ? name : `${module}:${name}`;
}

/** A JSON body of one member: `{"module:name": value}` (RFC 8040 section 3.5.3 names the target with its module). */
export function wrapMember(name: string, value: JsonSchema): JsonSchema {
  return { type: 'object', properties: { [name]: value }, required: [name], additionalProperties: false };
}

/** The `content` of a body in both encodings: the JSON member object, and the XML element alone. */
export function dataContent(json: JsonSchema, xml: JsonSchema): OpenApiObject {
  return { [MEDIA.dataJson]: { schema: json }, [MEDIA.dataXml]: { schema: xml } };
}

/** A response with a body in both encodings. */
export function bodyResponse(description: string, json: JsonSchema, xml: JsonSchema): OpenApiObject {
  return { description, content: dataContent(json, xml) };
}

/** A `$ref` to a component of `kind` (`responses`, `parameters`, `headers`, ...). */
export function refTo(kind: string, name: string): OpenApiObject {
  return { $ref: `#/components/${kind}/${name}` };
}
