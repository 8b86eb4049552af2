/**
 * Only a regular file is read as an import. Opening a FIFO nobody writes waits for ever (the open
 * itself blocks a thread, so the command never ends); a character device such as /dev/zero never
 * ends; a directory is no file. stat() answers without opening, so the refusal never waits.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';

export const NOT_A_REGULAR_FILE_HINT =
  'Pass the file downloaded from the NTA or the FSA itself (a .csv or .zip on disk; a link to one is fine). A FIFO, a device or a directory is not read: reading one can wait for ever or never end. To import from a pipe, save it to a file first.';

export class NotARegularFileError extends Error {
  readonly code = 'not_a_regular_file';
  readonly hint = NOT_A_REGULAR_FILE_HINT;
  constructor(
    readonly file: string,
    readonly what: string,
  ) {
    super(`${path.basename(file)}: ${what}, not a regular file [not_a_regular_file]`);
    this.name = 'NotARegularFileError';
  }
}

function whatIs(s: Stats): string {
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isDirectory()) return 'a directory';
  if (s.isSocket()) return 'a socket';
  return 'something else';
}

/** Throws NotARegularFileError unless `file` is (or links to) a regular file; ENOENT as stat throws it. */
export async function mustBeRegularFile(file: string): Promise<void> {
  const s = await stat(file);
  if (!s.isFile()) throw new NotARegularFileError(file, whatIs(s));
}
