import type { CommitOptions, NetconfSession } from '@yangkit/netconf-client';
import { type ChildMap, CompactChildMap, emptyTree, encodeXml } from '@yangkit/yang-json-codec';
import { toEditConfig } from '@yangkit/yang-patch';
import type { SchemaTree } from '@yangkit/yang-schema';
import {
  type BackendCapabilities,
  DEFAULT_CONFIRM_TIMEOUT,
  EditError,
  type EditRequest,
} from '../backend.js';
import { RestconfError } from '../errors.js';
import { datastoreXml } from './read.js';
import type { Sessions } from './sessions.js';

const NC_NS = 'urn:ietf:params:xml:ns:netconf:base:1.0';
const NMDA_NS = 'urn:ietf:params:xml:ns:yang:ietf-netconf-nmda';

/** Serializes work on a shared resource (the candidate datastore) without blocking anything else. */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `fn` after every earlier holder has finished. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

/** One `<config>` document (as yang-patch's toEditConfig writes it) and the index of the edit it fails as. */
interface Step {
  readonly index: number | undefined;
  readonly config: string;
}

function notAtomic(): RestconfError {
  return new RestconfError(
    'OPERATION_NOT_SUPPORTED',
    'these edits need several edit-config steps, which are atomic only through the candidate of a :candidate backend',
    { errorType: 'application', errorTag: 'operation-not-supported' },
  );
}

/**
 * The new content of a datastore that `default-operation replace` replaces, as one `<config>`
 * document without operation attributes (a `<copy-config>` source): the edits' nodes.
 */
function wholeConfig(schema: SchemaTree, request: EditRequest): Step {
  const children: ChildMap = new CompactChildMap();
  for (const { node } of request.edits) {
    if (node !== undefined) children.set(node.schema, [...(children.get(node.schema) ?? []), node]);
  }
  return {
    index: undefined,
    config: `<config xmlns="${NC_NS}">${encodeXml({ ...emptyTree(schema), children })}</config>`,
  };
}

/**
 * The `<config>` documents of a request: one per edit when a candidate makes the sequence atomic
 * (and each failure then names its edit), else as few as the edits allow, which must be one.
 * A replace of the whole `{+restconf}/data` datastore is one document, the new content.
 */
function stepsOf(schema: SchemaTree, request: EditRequest, atomic: boolean): Step[] {
  if (request.defaultOperation === 'replace' && request.datastore === undefined)
    return [wholeConfig(schema, request)];
  // `default-operation replace` (of an NMDA datastore) needs one document: a second would replace the first.
  const perEdit = atomic && request.defaultOperation !== 'replace';
  // toEditConfig names each document's edits; the names here are the edits' indexes.
  const edits = request.edits.map((edit, i) => ({ ...edit, editId: String(i) }));
  const plan = toEditConfig(schema, { patchId: 'restconf', edits }, { mode: perEdit ? 'per-edit' : 'auto' });
  // Nothing to edit still runs one (empty) edit: a datastore replaced by nothing is emptied.
  if (plan.documents.length === 0) return [{ index: undefined, config: `<config xmlns="${NC_NS}"/>` }];
  if (plan.documents.length > 1 && !perEdit) throw notAtomic();
  return plan.documents.map((d) => ({ index: Number(d.editIds[0]), config: d.config }));
}

/** Runs each step with `send`; a failure names the step's edit. */
async function runSteps(steps: readonly Step[], send: (config: string) => Promise<unknown>): Promise<void> {
  for (const step of steps) {
    try {
      await send(step.config);
    } catch (error) {
      throw step.index === undefined ? error : new EditError(step.index, error);
    }
  }
}

function defaultOperation(request: EditRequest): string {
  const op = request.defaultOperation;
  return op === undefined ? '' : `<default-operation>${op}</default-operation>`;
}

/**
 * Carries out edits over NETCONF (see `Backend.edit`). A `{+restconf}/data` edit goes to the
 * candidate with `<edit-config>` and then `<commit>` (confirmed when asked) when the server has
 * `:candidate`, else to running; the candidate is shared by every session of the server, so the
 * edits of this backend take turns on it for exactly edit + commit, and on any failure the
 * candidate changes are discarded, so an edit leaves nothing behind. An NMDA datastore is edited
 * alone with `<edit-data>` (RFC 8526 section 3.2.1).
 */
export class EditRunner {
  readonly #schema: SchemaTree;
  readonly #sessions: Sessions;
  readonly #changed: (datastore: string) => void;
  readonly #candidate = new Mutex();

  constructor(schema: SchemaTree, sessions: Sessions, changed: (datastore: string) => void) {
    this.#schema = schema;
    this.#sessions = sessions;
    this.#changed = changed;
  }

  async edit(request: EditRequest, capabilities: BackendCapabilities): Promise<void> {
    if (request.datastore !== undefined) return this.#editData(request, request.datastore);
    if (!capabilities.candidate) {
      const steps = stepsOf(this.#schema, request, false);
      request.check?.();
      await this.#sessions.use(request.user, (session) =>
        runSteps(steps, (config) => write(session, 'running', request, config)),
      );
      this.#changed('running');
      return;
    }
    const steps = stepsOf(this.#schema, request, true);
    await this.#candidate.run(() =>
      this.#sessions.use(request.user, async (session, use) => {
        request.check?.();
        try {
          await runSteps(steps, (config) => write(session, 'candidate', request, config));
          await session.commit(commitOptions(request));
        } catch (error) {
          try {
            await session.discardChanges();
          } catch {
            use.reusable = false;
          }
          throw error;
        }
        this.#changed('running');
      }),
    );
  }

  /** `<edit-data>` of each step on the datastore (its `<config>` in the NMDA namespace). */
  async #editData(request: EditRequest, datastore: string): Promise<void> {
    const steps = stepsOf(this.#schema, request, false);
    request.check?.();
    await this.#sessions.use(request.user, (session) =>
      runSteps(steps, (config) => {
        const nmdaConfig = config.replace(`<config xmlns="${NC_NS}"`, `<config xmlns="${NMDA_NS}"`);
        return session.rpc(
          `<edit-data xmlns="${NMDA_NS}">${datastoreXml(datastore)}${defaultOperation(request)}${nmdaConfig}</edit-data>`,
        );
      }),
    );
    this.#changed(datastore);
  }
}

/** The `<commit>` of a `{+restconf}/data` edit: plain, confirmed, or joining a pending confirmed commit. */
function commitOptions(request: EditRequest): CommitOptions {
  const { confirmed, persistId } = request;
  return {
    ...(confirmed === undefined
      ? {}
      : { confirmed: true, confirmTimeout: DEFAULT_CONFIRM_TIMEOUT, ...confirmed }),
    ...(persistId === undefined ? {} : { persistId }),
  };
}

/**
 * Writes one `<config>` document to `target`: `<edit-config>`, or for a replace of the whole
 * datastore (RFC 8040 section 4.5, PUT on `{+restconf}/data`) `<copy-config>` with the document
 * as its source, which replaces the target whatever the document lacks (RFC 6241 section 7.3).
 * `<edit-config>` with `default-operation replace` would say the same (section 7.2), but some
 * servers (yuma123 netconfd) keep the top-level nodes the document leaves out.
 */
function write(
  session: NetconfSession,
  target: 'candidate' | 'running',
  request: EditRequest,
  config: string,
): Promise<unknown> {
  if (request.defaultOperation === 'replace')
    return session.rpc(`<copy-config><target><${target}/></target><source>${config}</source></copy-config>`);
  return session.rpc(
    `<edit-config><target><${target}/></target>${defaultOperation(request)}${config}</edit-config>`,
  );
}
