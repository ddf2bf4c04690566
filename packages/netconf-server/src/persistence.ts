import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import type { DataNode, Step } from './data-tree.js';
import { type Change, Datastore, replayChange } from './datastore.js';
import { NetconfServerError } from './errors.js';
import { parseData } from './parse-data.js';
import { writeTree } from './write-xml.js';

/** One journal step: module, name, key. */
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
  load(): DataNode {
    let ds = new Datastore();
    let snapshotGeneration = -1;
    try {
      if (existsSync(this.file)) {
        const snap = JSON.parse(readFileSync(this.file, 'utf8')) as Snapshot;
        if (snap.format !== 'yangkit-startup/1') throw new Error(`unknown format ${String(snap.format)}`);
        ds = new Datastore(parseData(this.tree, snap.xml, { allowState: false }));
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
    ds.takeChanges();
    this.openJournal();
    return ds.root;
  }

  /** Appends one transaction and fsyncs it; returns when the change is durable. */
  append(changes: readonly Change[]): void {
    if (changes.length === 0) return;
    if (this.fd === undefined) this.openJournal();
    const line = `${JSON.stringify(changes.map(encodeChange))}\n`;
    const buf = Buffer.from(line, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(this.fd!, buf, off);
    fsyncSync(this.fd!);
    this.bytes += buf.length;
  }

  /** True when the journal has grown past the compaction threshold. */
  get needsCompaction(): boolean {
    return this.bytes >= this.compactBytes && !this.compacting;
  }

  /**
   * Writes `root` as the new snapshot. The tree is serialised synchronously (it must not change
   * under the writer); file I/O is asynchronous. Appends after this call go to a new generation.
   */
  async compact(root: DataNode): Promise<void> {
    if (this.compacting) return;
    this.compacting = true;
    try {
      const covered = this.generation;
      const xml = writeTree(this.tree, root);
      this.rotate();
      await this.writeSnapshot({ format: 'yangkit-startup/1', generation: covered, xml });
      for (const g of this.journals()) if (g <= covered) unlinkSync(this.journalName(g));
    } finally {
      this.compacting = false;
    }
  }

  /** Replaces the whole content at once (copy-config to startup), synchronously and durably. */
  replaceAll(root: DataNode): void {
    const covered = this.generation;
    const xml = writeTree(this.tree, root);
    this.rotate();
    const snap: Snapshot = { format: 'yangkit-startup/1', generation: covered, xml };
    const tmp = `${this.file}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, JSON.stringify(snap));
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

  private async writeSnapshot(snap: Snapshot): Promise<void> {
    const tmp = `${this.file}.tmp`;
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(JSON.stringify(snap));
      await handle.sync();
    } finally {
      await handle.close();
    }
    renameSync(tmp, this.file);
    this.fsyncDir();
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

  private replay(ds: Datastore, file: string): void {
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
        if (change) replayChange(ds, change);
      }
    }
  }

  private decodeChange(r: JournalChange): Change | undefined {
    const steps: Step[] = [];
    let parent: SchemaNode | undefined;
    for (const [m, n, k] of r.p) {
      const schema: SchemaNode | undefined = parent ? parent.dataChild(m, n) : this.tree.topLevel(m, n);
      if (!schema) return undefined;
      steps.push({ schema, key: k });
      parent = schema;
    }
    switch (r.o) {
      case 'c':
        return { op: 'create', steps, value: r.v, xml: r.x };
      case 's':
        return { op: 'set', steps, before: undefined, after: r.v, beforeXml: undefined, afterXml: r.x };
      case 'r':
        return { op: 'remove', steps, node: undefined as unknown as DataNode, prev: undefined };
      case 'm':
        return { op: 'move', steps, where: r.w, anchor: r.a, prev: undefined };
    }
  }
}

function encodeSteps(steps: readonly Step[]): JournalStep[] {
  return steps.map((s) => [s.schema.module, s.schema.name, s.key]);
}

function encodeChange(c: Change): JournalChange {
  const p = encodeSteps(c.steps);
  switch (c.op) {
    case 'create':
      return {
        o: 'c',
        p,
        ...(c.value !== undefined ? { v: c.value } : {}),
        ...(c.xml !== undefined ? { x: c.xml } : {}),
      };
    case 'set':
      return {
        o: 's',
        p,
        ...(c.after !== undefined ? { v: c.after } : {}),
        ...(c.afterXml !== undefined ? { x: c.afterXml } : {}),
      };
    case 'remove':
      return { o: 'r', p };
    case 'move':
      return { o: 'm', p, w: c.where, ...(c.anchor !== undefined ? { a: c.anchor } : {}) };
  }
}
