import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  CodecError,
  CompactChildMap,
  createNode,
  type DataNode,
  decodeXml,
  emptyTree,
  encodeXml,
  encodeXmlChunks,
  finishSteps,
  type InstanceTree,
  type PathStep,
  type Steps,
  stepKey,
  valueFromCanonical,
} from '@yangkit/yang-json-codec';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { type Change, createDatastore } from './datastore.js';
import { NetconfServerError } from './errors.js';

/** One journal step: module, name, key (list key values joined by NUL, or the leaf-list value). */
type JournalStep = [string, string, string];

/** A change as one journal record. */
type JournalChange =
  | { o: 'c'; p: JournalStep[]; v?: string; x?: string }
  | { o: 's'; p: JournalStep[]; v?: string; x?: string }
  | { o: 'r'; p: JournalStep[] }
  | { o: 'm'; p: JournalStep[]; w: 'first' | 'last' | 'before' | 'after'; a?: string };

/** The snapshot file: the journal generation it includes and the configuration as NETCONF XML. */
interface Snapshot {
  readonly format: 'yangkit-startup/1';
  readonly generation: number;
  readonly xml: string;
}

/** Options of {@link StartupStore}. */
export interface StartupStoreOptions {
  /** Journal size (bytes) above which a compaction runs after the reply (default 4 MiB). */
  readonly compactBytes?: number;
}

/**
 * Persists a datastore in a file so that an acknowledged change survives a crash: each transaction
 * is one line appended to a journal and fsynced before the reply; in the background the journal is
 * compacted into a snapshot (written to a temporary file, fsynced, renamed over the old one, and the
 * directory fsynced), after which the old journal generation is deleted. Loading reads the snapshot
 * and replays every newer journal generation; a torn last line (crash mid-write) is ignored.
 *
 * Files: `<file>` (snapshot, JSON) and `<file>.journal.<generation>` (JSON lines).
 */
export class StartupStore {
  private generation = 0;
  private fd: number | undefined;
  private bytes = 0;
  private compacting = false;
  private readonly compactBytes: number;

  constructor(
    readonly file: string,
    private readonly tree: SchemaTree,
    options: StartupStoreOptions = {},
  ) {
    this.compactBytes = options.compactBytes ?? 4 * 1024 * 1024;
  }

  /** Reads the snapshot and replays the journals; opens a fresh journal generation for appends. */
  load(): InstanceTree {
    let ds = createDatastore(this.tree);
    let snapshotGeneration = -1;
    try {
      if (existsSync(this.file)) {
        const snap = JSON.parse(readFileSync(this.file, 'utf8')) as Snapshot;
        if (snap.format !== 'yangkit-startup/1') throw new Error(`unknown format ${String(snap.format)}`);
        ds = createDatastore(this.tree, decodeXml(this.tree, snap.xml, { kind: 'config' }));
        snapshotGeneration = snap.generation;
      }
      const journals = this.journals().filter((g) => g > snapshotGeneration);
      for (const g of journals) this.replay(ds, this.journalName(g));
      this.generation = Math.max(snapshotGeneration, ...journals, 0) + 1;
    } catch (error) {
      if (NetconfServerError.isInstance(error)) throw error;
      throw new NetconfServerError(
        'STARTUP_FILE',
        `cannot load ${this.file}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    ds.take();
    this.openJournal();
    return ds.tree;
  }

  /** Appends one transaction and fsyncs it; returns when the change is durable. */
  append(changes: readonly Change[]): void {
    if (changes.length === 0) return;
    if (this.fd === undefined) this.openJournal();
    const line = `${JSON.stringify(changes.map((c) => this.encodeChange(c)))}\n`;
    const bytes = writeText(this.fd!, line);
    fsyncSync(this.fd!);
    this.bytes += bytes;
  }

  /** True when the journal has grown past the compaction threshold. */
  get needsCompaction(): boolean {
    return this.bytes >= this.compactBytes && !this.compacting;
  }

  /**
   * Writes a new snapshot from `chunks` (the encoding of running as it is when the first step runs,
   * which must not change from then on: a held read's, see the codec's `snapshotChunks`) in steps, as
   * {@link replaceAllSteps} does, then deletes the journal it covers. Appends after the first step go
   * to a new generation. Nothing is done while another compaction runs.
   */
  *compactSteps(chunks: Iterable<string>): Steps<void> {
    if (this.compacting) return;
    this.compacting = true;
    try {
      yield* this.snapshotSteps(chunks);
    } finally {
      this.compacting = false;
    }
  }

  /** Replaces the whole content at once (copy-config to startup), synchronously and durably. */
  replaceAll(tree: InstanceTree): void {
    finishSteps(this.replaceAllSteps(tree));
  }

  /**
   * {@link replaceAll} in steps (see the codec's `Steps`): the snapshot is encoded and written to a
   * temporary file a chunk of about 64 KiB per step, flushed to disk every {@link SYNC_BYTES} so that
   * no one fsync has the whole file to write, then renamed over the old one; durable when it ends.
   * `tree` must not change until it ends; appends meanwhile go to a new journal generation.
   */
  *replaceAllSteps(tree: InstanceTree): Steps<void> {
    yield* this.snapshotSteps(encodeXmlChunks(tree));
  }

  /** The snapshot of `chunks` written in steps over the file, and the journal it covers deleted. */
  private *snapshotSteps(chunks: Iterable<string>): Steps<void> {
    const covered = this.generation;
    this.rotate();
    const tmp = `${this.file}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      // The text JSON.stringify gives the snapshot, its xml string escaped a chunk at a time.
      const empty = JSON.stringify({
        format: 'yangkit-startup/1',
        generation: covered,
        xml: '',
      } satisfies Snapshot);
      let unsynced = writeText(fd, empty.slice(0, -2));
      for (const chunk of chunks) {
        unsynced += writeText(fd, JSON.stringify(chunk).slice(1, -1));
        if (unsynced >= SYNC_BYTES) {
          fdatasyncSync(fd);
          unsynced = 0;
        }
        yield;
      }
      writeText(fd, empty.slice(-2));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
    this.fsyncDir();
    for (const g of this.journals()) if (g <= covered) unlinkSync(this.journalName(g));
  }

  /** Closes the journal file. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private rotate(): void {
    this.close();
    this.generation++;
    this.openJournal();
  }

  private fsyncDir(): void {
    try {
      const fd = openSync(dirname(this.file), 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      // Some platforms cannot fsync a directory; the rename is still atomic.
    }
  }

  private openJournal(): void {
    this.fd = openSync(this.journalName(this.generation), 'a');
    this.bytes = 0;
  }

  private journalName(g: number): string {
    return `${this.file}.journal.${g}`;
  }

  private journals(): number[] {
    const dir = dirname(this.file);
    const prefix = `${basename(this.file)}.journal.`;
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
      .map((n) => Number(n.slice(prefix.length)))
      .sort((a, b) => a - b);
  }

  private replay(ds: ReturnType<typeof createDatastore>, file: string): void {
    const text = readFileSync(join(file), 'utf8');
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line === '') continue;
      let records: JournalChange[];
      try {
        records = JSON.parse(line) as JournalChange[];
      } catch (error) {
        // Only the last line can be torn by a crash; anything else is corruption.
        if (i >= lines.length - 2) break;
        throw new NetconfServerError('STARTUP_FILE', `corrupt journal ${file} line ${i + 1}`, {
          cause: error,
        });
      }
      for (const r of records) {
        const change = this.decodeChange(r);
        if (change) ds.replay(change);
      }
    }
  }

  private decodeChange(r: JournalChange): Change | undefined {
    const steps: PathStep[] = [];
    let parent: SchemaNode | undefined;
    for (const [m, n, k] of r.p) {
      const schema: SchemaNode | undefined = parent ? parent.dataChild(m, n) : this.tree.topLevel(m, n);
      if (!schema) return undefined;
      steps.push(stepOf(schema, k));
      parent = schema;
    }
    const last = steps[steps.length - 1];
    if (last === undefined) return undefined;
    switch (r.o) {
      case 'c':
        // Journals of earlier versions logged a list entry's keys as creates of their own.
        if (last.schema.isKey && steps[steps.length - 2]?.schema.kind === 'list') return undefined;
        return { op: 'create', path: steps, node: this.nodeOf(last, r.v, r.x) };
      case 's': {
        const value = this.valueOf(last.schema, r.v);
        return { op: 'set', path: steps, before: value, after: value };
      }
      case 'r':
        return { op: 'remove', path: steps, node: createNode(last.schema, undefined) };
      case 'm': {
        const after =
          r.w === 'first'
            ? null
            : r.w === 'after' && r.a !== undefined
              ? stepOf(last.schema, r.a)
              : undefined;
        // `before` and `last` of earlier versions: the entry's place is after its predecessor, or last.
        return after === undefined ? undefined : { op: 'move', path: steps, after, from: null };
      }
    }
  }

  /** The node a create record stands for: an entry with its keys, a leaf with its value, anydata content. */
  private nodeOf(step: PathStep, value: string | undefined, xml: string | undefined): DataNode {
    const schema = step.schema;
    if (xml !== undefined) return this.anydataOf(schema, xml);
    const node = createNode(schema, undefined);
    if (schema.kind === 'list') {
      for (const k of step.keys ?? []) {
        const keyNode = schema.keyNodes.find((n) => n.name === k.name)!;
        const leaf = createNode(keyNode, node);
        Object.assign(leaf, this.valueOf(keyNode, k.value));
        node.children!.set(keyNode, [leaf]);
      }
    } else if (value !== undefined) Object.assign(node, this.valueOf(schema, value));
    return node;
  }

  /** A canonical value with the union member it matches. */
  private valueOf(
    schema: SchemaNode,
    value: string | undefined,
  ): { value: string | undefined; member: DataNode['member'] } {
    if (value === undefined || schema.type === undefined) return { value, member: undefined };
    const r = valueFromCanonical(this.tree, schema.type, value, schema.module);
    return { value, member: r.ok ? r.member : undefined };
  }

  /** anydata content kept as XML text, decoded under its element. */
  private anydataOf(schema: SchemaNode, xml: string): DataNode {
    let parent = schema.parent;
    while (parent !== undefined && (parent.kind === 'choice' || parent.kind === 'case'))
      parent = parent.parent;
    try {
      const doc = decodeXml(
        this.tree,
        `<${schema.name} xmlns="${schema.namespace}">${xml}</${schema.name}>`,
        {
          kind: 'resource',
          ...(parent === undefined ? {} : { parent }),
        },
      );
      return doc.children.get(schema)![0]!;
    } catch (error) {
      if (!CodecError.isInstance(error)) throw error;
      return createNode(schema, undefined);
    }
  }

  private encodeChange(c: Change): JournalChange {
    const p = c.path.map((s): JournalStep => [s.schema.module, s.schema.name, stepKey(s) ?? '']);
    switch (c.op) {
      case 'create': {
        const kind = c.node.schema.kind;
        if (kind === 'anydata' || kind === 'anyxml') return { o: 'c', p, x: this.anydataXml(c.node) };
        return { o: 'c', p, ...(c.node.value !== undefined ? { v: c.node.value } : {}) };
      }
      case 'set':
        return { o: 's', p, ...(c.after.value !== undefined ? { v: c.after.value } : {}) };
      case 'remove':
        return { o: 'r', p };
      case 'move':
        return c.after === null
          ? { o: 'm', p, w: 'first' }
          : { o: 'm', p, w: 'after', a: stepKey(c.after) ?? '' };
    }
  }

  /** The content of an anydata node as XML text (the element's inside). */
  private anydataXml(node: DataNode): string {
    const xml = encodeXml({
      ...emptyTree(this.tree),
      children: new CompactChildMap([[node.schema, [node]]]),
    });
    const open = xml.indexOf('>');
    return xml[open - 1] === '/' ? '' : xml.slice(open + 1, xml.lastIndexOf('</'));
  }
}

/** Bytes of a snapshot written in steps after which they are flushed to disk (see `replaceAllSteps`). */
const SYNC_BYTES = 4 * 1024 * 1024;

/** Writes `text` whole at the file position of `fd`; returns its length in bytes. */
function writeText(fd: number, text: string): number {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off);
  return buf.length;
}

/** A journal step: the schema node with the entry key it names. */
function stepOf(schema: SchemaNode, key: string): PathStep {
  if (schema.kind === 'leaf-list') return { schema, value: key };
  if (schema.kind !== 'list' || schema.keyNodes.length === 0) return { schema };
  const values = schema.keyNodes.length === 1 ? [key] : key.split('\u0000');
  return { schema, keys: schema.keyNodes.map((k, i) => ({ name: k.name, value: values[i] ?? '' })) };
}
