import { childElement, childElements, textOf, type XmlElement } from '@yangkit/xml';
import {
  type ChildHolder,
  CodecError,
  type DataNode,
  decodeXml,
  findChild,
  type PathKey,
  type PathStep,
  pathOfSteps,
  validate,
  valueFromXml,
  xmlPathNamespaces,
} from '@yangkit/yang-json-codec';
import type { SchemaNode } from '@yangkit/yang-schema';
import { rpcError, rpcErrorOf } from './errors.js';
import type { NetconfServer } from './server.js';
import type { ServerSession } from './session.js';

/**
 * Checks operation input against the schema with the codec: names, types, mandatory parameters and the
 * other constraints of the input (RFC 7950 7.14.2); errors are `protocol` errors.
 */
export function checkInput(server: NetconfServer, operation: SchemaNode, el: XmlElement): void {
  if (!operation.children.some((c) => c.kind === 'input')) {
    const content = childElements(el);
    if (content.length > 0)
      throw rpcError('unknown-element', `${operation.name} takes no input`, {
        errorType: 'protocol',
        errorInfo: { 'bad-element': content[0]!.local },
      });
    return;
  }
  let errors: CodecError[];
  try {
    const kind = operation.kind === 'action' ? 'action-input' : 'rpc-input';
    errors = validate(decodeXml(server.schema, el, { kind, operation }));
  } catch (error) {
    if (!CodecError.isInstance(error)) throw error;
    errors = [error];
  }
  const error = rpcErrorOf(server.schema, errors, 'protocol');
  if (error !== undefined) throw error;
}

/** The keys of a list entry element on the way to an action, canonical as the tree keeps them. */
function keysOf(server: NetconfServer, list: SchemaNode, el: XmlElement): PathKey[] {
  return list.keyNodes.map((k) => {
    const kel = childElement(el, k.name, k.namespace);
    if (!kel)
      throw rpcError('missing-element', `list "${list.name}" needs its key "${k.name}"`, {
        errorType: 'protocol',
        errorInfo: { 'bad-element': k.name },
      });
    const r = valueFromXml(server.schema, k.type!, textOf(kel), kel.scope);
    return { name: k.name, value: r.ok ? r.value : textOf(kel) };
  });
}

/** RFC 7950 7.15.2 `<action>`: finds the target instance and the action, then runs its handler. */
export async function action(server: NetconfServer, session: ServerSession, op: XmlElement): Promise<string> {
  const view = await server.operationalView(session);
  let holder: ChildHolder = view;
  let target: DataNode | undefined;
  let parentSchema: SchemaNode | undefined;
  const steps: PathStep[] = [];
  let el: XmlElement | undefined = childElements(op)[0];
  for (let depth = 0; el && depth < 64; depth++) {
    const schema = schemaOfElement(server, parentSchema, el);
    if (!schema)
      throw rpcError('unknown-element', `unknown element "${el.local}" in <action>`, {
        errorType: 'protocol',
        errorInfo: { 'bad-element': el.local },
      });
    if (schema.kind === 'action') {
      const run = server.actionHandlers.get(schema.schemaPath);
      if (!run || target === undefined)
        throw rpcError('operation-not-supported', `no handler is registered for action "${schema.name}"`, {
          errorType: 'protocol',
        });
      server.nacm?.checkAction(session, target, schema);
      checkInput(server, schema, el);
      const output = await run(el, target, { session, server });
      return output ? output : '<ok/>';
    }
    const keys = schema.kind === 'list' ? keysOf(server, schema, el) : undefined;
    const step = keys === undefined ? { schema } : { schema, keys };
    steps.push(step);
    const next = findChild(holder, step);
    if (!next) {
      // RFC 8040 section 3.6: the action's instance is part of the request; name both.
      const path = pathOfSteps(server.schema, steps);
      throw rpcError(
        'data-missing',
        `the instance ${path.json} on which the action "${actionName(server, schema, el)}" is invoked does not exist`,
        {
          errorAppTag: 'instance-required',
          errorPath: path.xml,
          errorPathNamespaces: xmlPathNamespaces(server.schema, path.xml),
        },
      );
    }
    holder = target = next;
    parentSchema = schema;
    el = nextStep(el, schema);
  }
  throw rpcError('missing-element', '<action> names no action', {
    errorType: 'protocol',
    errorInfo: { 'bad-element': 'action' },
  });
}

/** The child element of a data node element on the way to an action: the one that is not a list key. */
function nextStep(el: XmlElement, schema: SchemaNode): XmlElement | undefined {
  return childElements(el).find(
    (c) =>
      !(schema.kind === 'list' && schema.keyNodes.some((k) => k.name === c.local && k.namespace === c.ns)),
  );
}

/** The schema node of `el` below `parent` (at the top level without one). */
function schemaOfElement(
  server: NetconfServer,
  parent: SchemaNode | undefined,
  el: XmlElement,
): SchemaNode | undefined {
  const m = el.ns ? server.schema.moduleByNamespace(el.ns) : undefined;
  if (!m) return undefined;
  return parent ? parent.dataChild(m.name, el.local) : server.schema.topLevel(m.name, el.local);
}

/** The name of the action the chain below `el` (an instance of `schema`) ends in, for messages. */
function actionName(server: NetconfServer, schema: SchemaNode, el: XmlElement): string {
  let s: SchemaNode | undefined = schema;
  let c: XmlElement | undefined = el;
  for (let depth = 0; s && c && s.kind !== 'action' && depth < 64; depth++) {
    c = nextStep(c, s);
    s = c && schemaOfElement(server, s, c);
  }
  return s?.kind === 'action' ? s.name : 'unknown';
}
