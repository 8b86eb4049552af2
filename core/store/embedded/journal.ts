/**
 * The embedded store's durability: a write-ahead journal with group commit. Every change is one
 * JSON line with a sequence number; all changes made in one turn of the event loop are written
 * with one write, and each change is acknowledged only after its write completed (it then
 * survives a crash of the process; FSYNC=true also survives a crash of the machine, at a cost).
 * A snapshot (all documents, with the last sequence number it contains) replaces the journal when
 * it grows; a crash between writing the snapshot and truncating the journal is harmless because
 * replay skips lines the snapshot already contains.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
  type PathLike,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { decodeLine, encodeLine } from './codec';

export type JournalRecord = { seq: number; c: string } & (
  { op: 'put'; doc: Record<string, unknown> } | { op: 'del'; id: string }
);

interface Pending {
  line: string;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class Journal {
  private fh: FileHandle | undefined;
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private scheduled = false;
  private failed: Error | undefined;
  private size = 0;
  seq = 0;

  constructor(
    private readonly file: string,
    private readonly fsync: boolean,
  ) {}

  async open(startSeq: number, existingSize: number): Promise<void> {
    this.seq = startSeq;
    this.size = existingSize;
    this.fh = await open(this.file, 'a');
  }

  get bytes(): number {
    return this.size;
  }

  /** Queues a change; resolves once it is written. */
  append(record: Omit<JournalRecord, 'seq'>): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    const line = `${encodeLine({ seq: ++this.seq, ...record })}\n`;
    return new Promise((resolve, reject) => {
      this.pending.push({ line, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  /** Writes everything queued (one write per batch); resolves when all of it is on disk. */
  async flush(): Promise<void> {
    this.scheduled = false;
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushing = (async () => {
      try {
        const buf = Buffer.from(batch.map((p) => p.line).join(''));
        await this.fh!.write(buf);
        if (this.fsync) await this.fh!.sync();
        this.size += buf.length;
        for (const p of batch) p.resolve();
      } catch (err) {
        // A store that cannot write must not acknowledge anything more.
        this.failed = err as Error;
        for (const p of batch) p.reject(this.failed);
      } finally {
        this.flushing = undefined;
      }
    })();
    await this.flushing;
  }

  /**
   * Replaces the journal by a snapshot of `lines` (all documents, as of sequence `seq`): the
   * snapshot is written beside, synced, renamed into place, then the journal is emptied.
   */
  async compact(snapshotFile: string, lines: Iterable<string>, seq: number): Promise<void> {
    await this.flush();
    writeSnapshot(snapshotFile, lines, seq);
    await this.fh!.truncate(0);
    await this.fh!.sync();
    this.size = 0;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.fh?.close();
    this.fh = undefined;
  }
}

function writeSnapshot(file: string, lines: Iterable<string>, seq: number): void {
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, `${encodeLine({ snapshot: 1, seq })}\n`);
    let chunk = '';
    for (const line of lines) {
      chunk += `${line}\n`;
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    if (chunk) writeSync(fd, chunk);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export interface Recovered {
  /** Documents by collection, after replaying the snapshot and the journal. */
  collections: Map<string, Map<string, Record<string, unknown>>>;
  seq: number;
  /** Length of the journal up to its last complete line (a torn tail is cut off there). */
  journalBytes: number;
  /** A torn last journal line (the process died mid-write) was ignored. */
  tornTail: boolean;
}

/** Loads the snapshot and replays the journal after it. */
export function recover(snapshotFile: PathLike, journalFile: PathLike): Recovered {
  const collections = new Map<string, Map<string, Record<string, unknown>>>();
  const coll = (c: string) => {
    let m = collections.get(c);
    if (!m) collections.set(c, (m = new Map()));
    return m;
  };
  let seq = 0;
  if (existsSync(snapshotFile)) {
    const lines = readFileSync(snapshotFile, 'utf8').split('\n');
    const header = decodeLine<{ snapshot: number; seq: number }>(lines[0]);
    seq = header.seq;
    for (let i = 1; i < lines.length; i++) {
      if (lines[i] === '') continue;
      const { c, doc } = decodeLine<{ c: string; doc: Record<string, unknown> }>(lines[i]);
      coll(c).set(String(doc._id), doc);
    }
  }
  let journalBytes = 0;
  let tornTail = false;
  if (existsSync(journalFile)) {
    const text = readFileSync(journalFile, 'utf8');
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line === '') continue;
      let r: JournalRecord;
      try {
        r = decodeLine<JournalRecord>(line);
      } catch (err) {
        const isLast = lines.slice(i + 1).every((l) => l === '');
        if (isLast) {
          tornTail = true; // written partly when the process died: never acknowledged
          break;
        }
        throw new Error(`embedded store journal is corrupt at line ${i + 1}: ${(err as Error).message}`, {
          cause: err,
        });
      }
      journalBytes += Buffer.byteLength(line) + 1;
      if (r.seq <= seq) continue; // already in the snapshot
      seq = r.seq;
      if (r.op === 'put') coll(r.c).set(String(r.doc._id), r.doc);
      else coll(r.c).delete(r.id);
    }
  }
  return { collections, seq, journalBytes, tornTail };
}
