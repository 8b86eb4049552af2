/**
 * The embedded store: no server to install, one process. Documents live in memory (MemoryCollection),
 * every acknowledged change is in a write-ahead journal (group commit), and a snapshot replaces the
 * journal when it grows or at close. Logs (audit trails) go to append-only files, not memory.
 * Files, under DATA_DIR/store: snapshot.jsonl, journal.jsonl, <log>.log.jsonl, LOCK.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { BatchWriter } from './batch-writer';
import path from 'node:path';
import type { Collection, CollectionSpec, Doc, DocumentStore, LogEntry } from '../port';
import { decodeLine, encodeLine } from './codec';
import { Journal, recover } from './journal';
import { MemoryCollection } from './memory-collection';

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

export interface EmbeddedOptions {
  /** fsync every batch: survives a machine crash too, at a large cost in throughput. */
  fsync?: boolean;
  /** Journal size that triggers a snapshot. */
  compactBytes?: number;
  /** How often TTL indexes are swept. */
  sweepMs?: number;
}

export class EmbeddedStore implements DocumentStore {
  readonly kind = 'embedded' as const;
  private readonly lockFile: string;
  private readonly snapshotFile: string;
  private readonly journal: Journal;
  private readonly collections = new Map<string, MemoryCollection<Doc>>();
  private recovered = new Map<string, Map<string, Record<string, unknown>>>();
  private readonly ready: Promise<void>;
  private readonly logs = new Map<string, Promise<BatchWriter>>();
  private readonly options: Required<EmbeddedOptions>;
  private compacting: Promise<void> | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  /** Takes the directory's lock: the embedded store serves one process at a time. */
  constructor(
    private readonly dir: string,
    options: EmbeddedOptions = {},
  ) {
    this.options = { fsync: false, compactBytes: 64 * 1024 * 1024, sweepMs: 60_000, ...options };
    mkdirSync(dir, { recursive: true });
    this.lockFile = path.join(dir, 'LOCK');
    takeLock(this.lockFile);
    this.snapshotFile = path.join(dir, 'snapshot.jsonl');
    this.journal = new Journal(path.join(dir, 'journal.jsonl'), this.options.fsync);
    this.ready = this.init();
  }

  private async init(): Promise<void> {
    const journalFile = path.join(this.dir, 'journal.jsonl');
    const r = recover(this.snapshotFile, journalFile);
    // Cut a torn last line (never acknowledged) so new lines follow a complete one.
    if (r.tornTail) truncateSync(journalFile, r.journalBytes);
    this.recovered = r.collections;
    await this.journal.open(r.seq, r.journalBytes);
    this.sweeper = setInterval(() => void this.sweep(), this.options.sweepMs).unref();
  }

  async collection<T extends Doc>(name: string, spec: CollectionSpec): Promise<Collection<T>> {
    if (!NAME.test(name)) throw new Error(`bad collection name ${name}`);
    await this.ready;
    let c = this.collections.get(name);
    if (!c) {
      c = new MemoryCollection<Doc>(name, this.recovered.get(name), (record) => this.write(record));
      this.recovered.delete(name);
      this.collections.set(name, c);
    }
    c.ensureIndexes(spec);
    return c as unknown as Collection<T>;
  }

  private async write(record: Parameters<Journal['append']>[0]): Promise<void> {
    if (this.closed) throw new Error('the embedded store is closed');
    await this.journal.append(record);
    if (this.journal.bytes > this.options.compactBytes && !this.compacting) {
      this.compacting = this.compact().finally(() => (this.compacting = undefined));
    }
  }

  /** Writes a snapshot of every document (including not-yet-journaled volatile changes). */
  async compact(): Promise<void> {
    const seq = this.journal.seq;
    const collections = this.collections;
    const recovered = this.recovered;
    function* lines(): Generator<string> {
      for (const [name, c] of collections) for (const doc of c.all()) yield encodeLine({ c: name, doc });
      // Collections present on disk but not opened by this process are kept as they were.
      for (const [name, docs] of recovered)
        for (const doc of docs.values()) yield encodeLine({ c: name, doc });
    }
    await this.journal.compact(this.snapshotFile, lines(), seq);
  }

  private async sweep(): Promise<void> {
    const now = new Date();
    for (const c of this.collections.values()) await c.sweep(now).catch(() => undefined);
  }

  async openLog(name: string): Promise<void> {
    await this.logWriter(name);
  }

  async appendLog(name: string, entry: LogEntry): Promise<void> {
    await (await this.logWriter(name)).append(`${encodeLine(entry)}\n`);
  }

  private logWriter(name: string): Promise<BatchWriter> {
    if (!NAME.test(name)) throw new Error(`bad log name ${name}`);
    let writer = this.logs.get(name);
    if (!writer) {
      const file = path.join(this.dir, `${name}.log.jsonl`);
      writer = open(file, 'a').then((fh) => new BatchWriter(fh, this.options.fsync));
      writer.catch(() => this.logs.delete(name)); // a failed open is retried by the next call
      this.logs.set(name, writer);
    }
    return writer;
  }

  async readLog(name: string, where: Record<string, string | number>, limit: number): Promise<LogEntry[]> {
    const file = path.join(this.dir, `${name}.log.jsonl`);
    if (!existsSync(file)) return [];
    const out: LogEntry[] = [];
    const lines = readFileSync(file, 'utf8').split('\n');
    for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
      if (!lines[i]) continue;
      let e: LogEntry;
      try {
        e = decodeLine<LogEntry>(lines[i]);
      } catch {
        continue; // a torn last line
      }
      if (Object.entries(where).every(([k, v]) => e[k] === v)) out.push(e);
    }
    return out;
  }

  async ping(): Promise<void> {
    await this.ready;
    if (this.closed) throw new Error('the embedded store is closed');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.ready;
    await this.compacting;
    // A snapshot at close keeps the next start fast (the journal is replayed from empty).
    await this.compact();
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    await this.journal.close();
    for (const w of this.logs.values()) await (await w).close();
    this.logs.clear();
    rmSync(this.lockFile, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function takeLock(file: string): void {
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const holder = Number(readFileSync(file, 'utf8'));
  // A lock left by a crashed process (kill -9) is taken over; a live holder is refused.
  if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
    throw new Error(
      `The embedded store in ${path.dirname(file)} is in use by process ${holder}; it serves one process at a time (use MongoDB to run several).`,
    );
  }
  writeFileSync(file, String(process.pid));
}
