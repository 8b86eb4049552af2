/**
 * Zips for tests: NTA downloads are zips of the CSV, read through yauzl. Written with yazl, the
 * zip writer by yauzl's author, so that tests feed the importer zips a maintained library made.
 */
import { ZipFile } from 'yazl';

/** A zip (deflate) holding the given files. */
export function makeZip(files: Array<{ name: string; data: Buffer }>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const f of files) zip.addBuffer(f.data, f.name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}
