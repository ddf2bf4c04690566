import { YangCompileError, YangSchemaError } from '../errors';
import { isTransparent, type NodeImpl } from '../schema-node';
import type { YangType } from '../types/yang-type';
import type { CompileContext } from './context';
import { parseLeafrefPath } from './leafref-path';
import { containsLeafref, type LeafrefOrigin, leafrefOrigins } from './type-resolver';

/** Looks a data node up among top-level nodes, choice and case transparent. */
function findInList(list: readonly NodeImpl[], module: string, name: string): NodeImpl | undefined {
  for (const n of list) {
    if (isTransparent(n.kind)) {
      const found = findInList(n.children, module, name);
      if (found) return found;
    } else if (n.name === name && n.module === module) return n;
  }
  return undefined;
}

function dataParent(node: NodeImpl): NodeImpl | undefined {
  let p = node.parent;
  while (p && isTransparent(p.kind)) p = p.parent;
  return p;
}

/**
 * Resolves leafref paths (RFC 7950 9.9.2) to their target schema nodes and stores them on
 * `type.leafrefTarget`. Each leaf gets its own type object, since a relative path of a shared typedef
 * names a different node from every leaf that uses it.
 */
export class LeafrefResolver {
  constructor(
    private readonly ctx: CompileContext,
    private readonly roots: ReadonlyMap<string, readonly NodeImpl[]>,
    /** Collects import-only modules that a path enters; the caller implements them and recompiles. */
    private readonly notImplemented: Set<string>,
  ) {}

  /** Binds the leafrefs of every leaf and leaf-list in the trees below `nodes`. */
  bindAll(nodes: readonly NodeImpl[], structureRoots: readonly NodeImpl[] = []): void {
    const stack = [...nodes];
    for (let n = stack.pop(); n; n = stack.pop()) {
      for (const c of n.children) stack.push(c);
      if (n.type && containsLeafref(n.type)) n.type = this.bind(n, n.type, structureRoots);
    }
  }

  private bind(node: NodeImpl, type: YangType, structureRoots: readonly NodeImpl[]): YangType {
    if (type.base === 'leafref') {
      const origin = leafrefOrigins.get(type);
      const target = this.resolve(node, type.path ?? '', origin, structureRoots);
      return { ...type, leafrefTarget: target };
    }
    if (type.members) {
      return {
        ...type,
        members: type.members.map((m) => (containsLeafref(m) ? this.bind(node, m, structureRoots) : m)),
      };
    }
    return type;
  }

  private resolve(
    node: NodeImpl,
    text: string,
    origin: LeafrefOrigin | undefined,
    structureRoots: readonly NodeImpl[],
  ): NodeImpl {
    const fail = (why: string): never => {
      throw new YangCompileError(`leafref path "${text}" of ${node.dataPath}: ${why}`, {
        code: 'YANG_LEAFREF',
        location: origin?.statement.location ?? node.location,
        module: origin?.unit.parsed.name ?? node.module,
      });
    };
    let path: ReturnType<typeof parseLeafrefPath>;
    try {
      path = parseLeafrefPath(text);
    } catch (e) {
      if (YangSchemaError.isInstance(e)) return fail(e.detail);
      throw e;
    }
    let cur: NodeImpl | undefined;
    if (!path.absolute) {
      cur = node;
      for (let i = 0; i < path.up; i++) {
        if (!cur) return fail('too many "../" steps');
        cur = dataParent(cur);
      }
    }
    for (const step of path.steps) {
      const modules: string[] = [];
      if (step.prefix === undefined) {
        // RFC 7950 6.4.1: unprefixed names belong to the current node's module; YANG 1.0 modules
        // used them for the defining module, so that one is tried as well.
        modules.push(node.module);
        if (origin) modules.push(origin.unit.module.name);
      } else {
        const m = origin
          ? this.ctx.moduleOfPrefix(origin.unit, step.prefix)
          : this.ctx.byName.get(node.module);
        if (!m) fail(`unknown prefix "${step.prefix}"`);
        else modules.push(m.name);
      }
      let found: NodeImpl | undefined;
      for (const m of modules) {
        found = cur
          ? cur.dataChild(m, step.name)
          : (findInList(this.roots.get(m) ?? [], m, step.name) ?? findInList(structureRoots, m, step.name));
        if (found) break;
      }
      if (!found) {
        const target = modules.find((m) => !this.roots.has(m) && this.ctx.byName.has(m));
        if (target !== undefined) {
          this.notImplemented.add(target);
          return node;
        }
      }
      if (!found) return fail(`no schema node "${step.prefix ? `${step.prefix}:` : ''}${step.name}"`);
      cur = found;
    }
    if (!cur || (cur.kind !== 'leaf' && cur.kind !== 'leaf-list')) {
      return fail(`target is not a leaf or leaf-list`);
    }
    return cur;
  }
}
