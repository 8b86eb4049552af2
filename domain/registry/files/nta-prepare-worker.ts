/**
 * The importer's second pass, read in a worker thread: the file's records (checked again, in the
 * encoding the first pass found) and, for each, the corporation it makes when nothing is stored
 * under its number yet, with its JSON and search keys (stored-corporation.ts). The importer's
 * thread then only merges records into corporations already stored and writes, so reading and
 * writing use two cores (bench/README.md). At most AHEAD batches wait unread, so memory is flat.
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';
import path from 'node:path';
import { applyRecord } from '../corporation';
import type { DateLimits } from './date-bounds';
import type { NtaEncoding } from './nta-decode';
import { readNtaFile } from './nta-file';
import { NTA_COLUMNS, recordFromFields, type NtaRecord } from './nta-layout';
import { NtaFileError, type NtaFileErrorCode } from './nta-validate';
import { storedOf, type StoredCorporation } from '../stores/stored-corporation';
import { packHistory } from '../stores/history-row';
import { stateOfRecord } from '../corporation-history';

/** Batches the worker may read ahead of the importer. */
const AHEAD = 2;
/**
 * Separates a record's fields in the text sent for it. No NTA field holds U+0001; if one did, the
 * record would no longer have 30 fields and the import would stop there, never misread it.
 */
const FIELD_SEPARATOR = '\u0001';

interface Job {
  file: string;
  encoding: NtaEncoding;
  batchSize: number;
  /** The first pass's limits, so that both passes judge the dates on one clock reading. */
  dateLimits: DateLimits;
}

/** A batch as sent between threads: each record as one string, so that copying it is cheap. */
interface BatchMessage {
  type: 'batch';
  records: string[];
  fresh: StoredCorporation[];
  bytes: number;
}
type Message =
  | BatchMessage
  | { type: 'end' }
  | {
      type: 'error';
      error: {
        code?: NtaFileErrorCode;
        file?: string;
        line?: number | null;
        detail?: string;
        message: string;
      };
    };

/** A record of the batch and the corporation it makes on its own, when nothing is stored. */
export interface PreparedRecord {
  record: () => NtaRecord;
  number: string;
  fresh: StoredCorporation;
}

export interface PreparedBatch {
  records: PreparedRecord[];
  /** Bytes of the file read so far. */
  bytes: number;
}

/** The records of a checked file in batches, prepared in a worker thread. */
export async function* preparedBatches(job: Job): AsyncGenerator<PreparedBatch> {
  const worker = new Worker(path.join(__dirname, 'nta-prepare-worker.js'), { workerData: job });
  const waiting: Message[] = [];
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  worker.on('message', (m: Message) => {
    waiting.push(m);
    wake?.();
  });
  worker.on('error', (err) => {
    failure = err;
    wake?.();
  });
  worker.on('exit', (code) => {
    if (code !== 0 && !failure) failure = new Error(`the import's reader stopped (exit code ${code})`);
    wake?.();
  });
  try {
    for (;;) {
      while (waiting.length === 0 && !failure) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      const m = waiting.shift();
      if (!m) throw failure!;
      if (m.type === 'end') return;
      if (m.type === 'error') throw errorOf(m.error);
      worker.postMessage('more');
      yield {
        bytes: m.bytes,
        records: m.records.map((text, i) => ({
          number: m.fresh[i].corporate_number,
          fresh: m.fresh[i],
          record: () => recordFromFields(text.split(FIELD_SEPARATOR)),
        })),
      };
    }
  } finally {
    await worker.terminate();
  }
}

function errorOf(e: Extract<Message, { type: 'error' }>['error']): Error {
  return e.code && e.file !== undefined && e.line !== undefined && e.detail !== undefined
    ? new NtaFileError(e.code, e.file, e.line, e.detail)
    : new Error(e.message);
}

async function run(job: Job): Promise<void> {
  const port = parentPort!;
  let credit = AHEAD;
  let resume: (() => void) | null = null;
  port.on('message', () => {
    credit++;
    resume?.();
  });
  let bytes = 0;
  let batch: BatchMessage = { type: 'batch', records: [], fresh: [], bytes: 0 };
  const send = async () => {
    while (credit === 0) await new Promise<void>((resolve) => (resume = resolve));
    resume = null;
    credit--;
    batch.bytes = bytes;
    port.postMessage(batch);
    batch = { type: 'batch', records: [], fresh: [], bytes: 0 };
  };
  try {
    const records = readNtaFile(job.file, {
      encoding: job.encoding,
      dateLimits: job.dateLimits,
      onBytes: (n) => (bytes += n),
    });
    for await (const { record } of records) {
      batch.records.push(NTA_COLUMNS.map((c) => record[c]).join(FIELD_SEPARATOR));
      const fresh = applyRecord(null, record);
      batch.fresh.push({ ...storedOf(fresh), history: packHistory(fresh, [stateOfRecord(record)]) });
      if (batch.records.length >= job.batchSize) await send();
    }
    if (batch.records.length > 0) await send();
    port.postMessage({ type: 'end' } satisfies Message);
  } catch (err) {
    const e = err as Partial<NtaFileError> & Error;
    port.postMessage({
      type: 'error',
      error: { code: e.code, file: e.file, line: e.line, detail: e.detail, message: e.message },
    } satisfies Message);
  }
}

if (parentPort && workerData) void run(workerData as Job);
