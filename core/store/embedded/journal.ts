/**
 * The embedded store's durability: a write-ahead journal with group commit (BatchWriter). Every
 * change is one JSON line with a sequence number, acknowledged only after its write.
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
import { open } from 'node:fs/promises';
import { BatchWriter } from './batch-writer';
import { decodeLine, encodeLine } from './codec';

export type JournalRecord = { seq: number; c: string } & (
  { op: 'put'; doc: Record<string, unknown> } | { op: 'del'; id: string }
);

export class Journal {
  private writer: BatchWriter | undefined;
  seq = 0;

  constructor(
    private readonly file: string,
    private readonly fsync: boolean,
  ) {}

  async open(startSeq: number, existingBytes: number): Promise<void> {
    this.seq = startSeq;
    this.writer = new BatchWriter(await open(this.file, 'a'), this.fsync, existingBytes);
  }

  get bytes(): number {
    return this.writer?.bytes ?? 0;
  }

  /** Queues a change; resolves once it is written. */
  append(
    record: { c: string; op: 'put'; doc: Record<string, unknown> } | { c: string; op: 'del'; id: string },
  ): Promise<void> {
    return this.writer!.append(`${encodeLine({ seq: ++this.seq, ...record })}\n`);
  }

  flush(): Promise<void> {
    return this.writer!.flush();
  }

  /**
   * Replaces the journal by a snapshot of `lines` (all documents, as of sequence `seq`): the
   * snapshot is written beside, synced, renamed into place, then the journal is emptied.
   */
  async compact(snapshotFile: string, lines: Iterable<string>, seq: number): Promise<void> {
    await this.writer!.flush();
    writeSnapshot(snapshotFile, lines, seq);
    await this.writer!.truncate();
  }

  async close(): Promise<void> {
    await this.writer?.close();
    this.writer = undefined;
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
