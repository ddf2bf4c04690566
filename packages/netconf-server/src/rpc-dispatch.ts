import { childElement, childElements, textOf, type XmlElement } from '@yangkit/xml';
import type { SchemaNode } from '@yangkit/yang-schema';
import { childAt, type DataNode, joinKey } from './data-tree.js';
import { rpcError } from './errors.js';
import type { NetconfServer } from './server.js';
import type { ServerSession } from './session.js';
import { readValue } from './values.js';

/** Checks operation input against the schema: names, types, mandatory parameters (RFC 7950 7.14.2). */
export function checkInput(server: NetconfServer, operation: SchemaNode, el: XmlElement): void {
  const input = operation.children.find((c) => c.kind === 'input');
  const content = childElements(el);
  if (!input) {
    if (content.length > 0)
      throw rpcError('unknown-element', `${operation.name} takes no input`, {
        errorType: 'protocol',
        errorInfo: { 'bad-element': content[0]!.local },
      });
    return;
  }
  const node: DataNode = {
    schema: input,
    parent: undefined,
    key: '',
    value: undefined,
    xml: undefined,
    kids: new Map(),
  };
  inputEdit(server, input, node, content);
  for (const c of input.dataChildren()) {
    if (c.mandatory && c.kind !== 'choice' && !node.kids!.has(c)) {
      throw rpcError('missing-element', `mandatory input parameter "${c.name}" is missing`, {
        errorType: 'protocol',
        errorInfo: { 'bad-element': c.name },
      });
    }
  }
}

function inputEdit(server: NetconfServer, input: SchemaNode, node: DataNode, content: XmlElement[]): void {
  for (const el of content) {
    const m = el.ns ? server.schema.moduleByNamespace(el.ns) : undefined;
    const schema = m ? input.dataChild(m.name, el.local) : undefined;
    if (!schema)
      throw rpcError('unknown-element', `unknown input parameter "${el.local}"`, {
        errorType: 'protocol',
        errorInfo: { 'bad-element': el.local },
      });
    if (schema.kind === 'leaf' || schema.kind === 'leaf-list') {
      const r = readValue(server.schema, schema, textOf(el), el.scope);
      if (!r.ok)
        throw rpcError(
          'invalid-value',
          r.errorMessage ?? `invalid value for "${schema.name}": ${r.message}`,
          {
            errorType: 'protocol',
            errorAppTag: r.errorAppTag,
            errorInfo: { 'bad-element': schema.name, 'bad-value': textOf(el) },
          },
        );
      const leaf: DataNode = {
        schema,
        parent: node,
        key: schema.kind === 'leaf-list' ? r.value : '',
        value: r.value,
        xml: undefined,
        kids: undefined,
      };
      if (schema.kind === 'leaf-list') {
        const map =
          (node.kids!.get(schema) as Map<string, DataNode> | undefined) ?? new Map<string, DataNode>();
        map.set(leaf.key, leaf);
        node.kids!.set(schema, map);
      } else node.kids!.set(schema, leaf);
    } else if (schema.kind === 'container' || schema.kind === 'list') {
      const child: DataNode = {
        schema,
        parent: node,
        key: '',
        value: undefined,
        xml: undefined,
        kids: new Map(),
      };
      inputEdit(server, schema, child, childElements(el));
      if (schema.kind === 'list') {
        const key = joinKey(
          schema.keyNodes.map((k) => {
            const s = child.kids!.get(k);
            return s && !(s instanceof Map) ? (s.value ?? '') : '';
          }),
        );
        const map =
          (node.kids!.get(schema) as Map<string, DataNode> | undefined) ?? new Map<string, DataNode>();
        map.set(key, { ...child, key });
        node.kids!.set(schema, map);
      } else node.kids!.set(schema, child);
    }
  }
}

/** RFC 7950 7.15.2 `<action>`: finds the target instance and the action, then runs its handler. */
export async function action(server: NetconfServer, session: ServerSession, op: XmlElement): Promise<string> {
  const view = await server.operationalView(session);
  let node: DataNode = view;
  let parentSchema: SchemaNode | undefined;
  let el: XmlElement | undefined = childElements(op)[0];
  for (let depth = 0; el && depth < 64; depth++) {
    const m = el.ns ? server.schema.moduleByNamespace(el.ns) : undefined;
    const schema = m
      ? parentSchema
        ? parentSchema.dataChild(m.name, el.local)
        : server.schema.topLevel(m.name, el.local)
      : undefined;
    if (!schema)
      throw rpcError('unknown-element', `unknown element "${el.local}" in <action>`, {
        errorType: 'protocol',
        errorInfo: { 'bad-element': el.local },
      });
    if (schema.kind === 'action') {
      const run = server.actionHandlers.get(schema.schemaPath);
      if (!run)
        throw rpcError('operation-not-supported', `no handler is registered for action "${schema.name}"`, {
          errorType: 'protocol',
        });
      server.nacm?.checkAction(session, node, schema);
      checkInput(server, schema, el);
      const output = await run(el, node, { session, server });
      return output ? output : '<ok/>';
    }
    let key = '';
    if (schema.kind === 'list') {
      key = joinKey(
        schema.keyNodes.map((k) => {
          const kel = childElement(el!, k.name, k.namespace);
          if (!kel)
            throw rpcError('missing-element', `list "${schema.name}" needs its key "${k.name}"`, {
              errorType: 'protocol',
              errorInfo: { 'bad-element': k.name },
            });
          const r = readValue(server.schema, k, textOf(kel), kel.scope);
          return r.ok ? r.value : textOf(kel);
        }),
      );
    }
    const next = childAt(node, { schema, key });
    if (!next)
      throw rpcError('data-missing', `the instance the action "${op.local}" names does not exist`, {
        errorAppTag: 'instance-required',
      });
    node = next;
    parentSchema = schema;
    el = childElements(el).find(
      (c) =>
        !(schema.kind === 'list' && schema.keyNodes.some((k) => k.name === c.local && k.namespace === c.ns)),
    );
  }
  throw rpcError('missing-element', '<action> names no action', {
    errorType: 'protocol',
    errorInfo: { 'bad-element': 'action' },
  });
}
