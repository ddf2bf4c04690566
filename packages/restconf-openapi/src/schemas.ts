import {
  type JsonSchema,
  type JsonSchemaOptions,
  membersJsonSchema,
  nodeJsonSchema,
  toJsonSchema,
} from '@yangkit/yang-json-codec';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { outerName, wrapMember } from './bodies.js';
import { componentName, type SchemaComponents } from './components.js';

/** Which data a body holds: everything (a GET reply) or configuration only (an edit). */
export type Variant = 'data' | 'config';

const stateCache = new WeakMap<SchemaNode, boolean>();

/** Whether state data (config false) is at or below `node`: then its configuration body differs. */
function holdsState(node: SchemaNode): boolean {
  let found = stateCache.get(node);
  if (found === undefined) {
    found = !node.config || node.children.some(holdsState);
    stateCache.set(node, found);
  }
  return found;
}

/** The component name of `node`'s schema in `variant`: `_config` marks a configuration body that differs. */
function variantName(node: SchemaNode, variant: Variant): string {
  return `${componentName(node.dataPath)}${variant === 'config' && holdsState(node) ? '_config' : ''}`;
}

/**
 * Where the members of each `uses` were found: a pass over the whole document fills it, so that
 * the pass that writes the document shares exactly the groupings used more than once.
 */
export class GroupingUses {
  private readonly holders = new Map<string, Set<SchemaNode | undefined>>();
  private counting = true;

  /** Counts one use; while counting, the members stay in place. */
  note(grouping: string, schema: JsonSchema, parent: SchemaNode | undefined): boolean {
    const key = `${grouping}\n${JSON.stringify(schema)}`;
    if (this.counting) {
      const set = this.holders.get(key) ?? new Set();
      set.add(parent);
      this.holders.set(key, set);
      return false;
    }
    return (this.holders.get(key)?.size ?? 0) > 1;
  }

  /** Ends the counting pass: from now on, {@link note} answers whether a use is shared. */
  done(): void {
    this.counting = false;
  }
}

/**
 * The JSON Schemas of bodies, from the codec's `toJsonSchema` family: every container and list
 * entry object becomes a component (equal ones shared), and the members of a grouping used at
 * more than one place a component of its own joined with `allOf`. Every schema describes both
 * encodings: member names for JSON, OpenAPI `xml` names for XML.
 */
export class BodySchemas {
  private readonly options: Record<Variant, JsonSchemaOptions>;

  constructor(
    private readonly tree: SchemaTree,
    private readonly components: SchemaComponents,
    groupings: GroupingUses,
    private readonly simpleNames: boolean,
  ) {
    const variant = (v: Variant): JsonSchemaOptions => ({
      configOnly: v === 'config',
      simpleNames,
      descriptions: true,
      xml: true,
      objectSchema: (node, schema) => components.ref(variantName(node, v), schema),
      groupingSchema: (grouping, schema, parent) =>
        groupings.note(grouping, schema, parent)
          ? components.ref(`grouping.${grouping.replace(':', '.')}`, schema)
          : undefined,
    });
    this.options = { data: variant('data'), config: variant('config') };
  }

  /** The schema of `node`'s member value. */
  member(node: SchemaNode, variant: Variant): JsonSchema {
    return nodeJsonSchema(this.tree, node, this.options[variant]);
  }

  /**
   * The bodies of a data resource as components: the JSON object of its one member (always
   * module-qualified, RFC 8040 section 3.5.3) and the XML element. A list or leaf-list entry
   * (`entry`) is an array of one in JSON (as RFC 8040 B.2.3 writes it), one element in XML; the
   * whole list or leaf-list is the array, and its elements.
   */
  resource(node: SchemaNode, variant: Variant, entry: boolean): { json: JsonSchema; xml: JsonSchema } {
    const base = variantName(node, variant);
    const member = this.member(node, variant);
    const array = node.kind === 'list' || node.kind === 'leaf-list';
    const value = entry ? { ...member, minItems: 1, maxItems: 1 } : member;
    const name = outerName(this.simpleNames, node.module, node.name);
    const element = array ? (member.items as JsonSchema) : member;
    return {
      json: this.components.ref(`${base}${entry ? '.entry' : ''}.body`, wrapMember(name, value)),
      xml: element.$ref === undefined ? this.components.ref(base, element) : element,
    };
  }

  /** The object of `parent`'s data children (operation input or output, notification). */
  members(parent: SchemaNode): JsonSchema {
    return membersJsonSchema(this.tree, parent, this.options.data);
  }

  /** The object of the top-level data nodes of `modules` (all when undefined): the datastore. */
  datastore(modules: readonly string[] | undefined, variant: Variant): JsonSchema {
    const {
      $schema: _dialect,
      title: _title,
      ...object
    } = toJsonSchema(this.tree, {
      ...this.options[variant],
      ...(modules === undefined ? {} : { modules }),
    });
    return object;
  }
}
