/**
 * Imports the registry files we serve from into the store the gateway uses:
 *   npm run import:registry -- <file.csv|file.zip> [more files] [--encoding utf-8|shift_jis] [--force] [--allow-fewer-rows] [--json]
 * Each file's format is recognised from its first bytes:
 * - the NTA corporate-number files: CSV (30 columns, no header; Unicode or Shift_JIS edition,
 *   detected unless --encoding says) or zips of them, full (全件) or differential (差分), applied
 *   oldest first by the date in their names;
 * - the FSA's EDINET code list (EdinetcodeDlInfo.csv, cp932);
 * - the NTA invoice register files (適格請求書発行事業者公表情報, 24-column UTF-8 CSV).
 * A damaged file is refused whole (exit 65, the file, line, code and a hint on stderr) and nothing
 * of it is written; so is a full file with no rows, or with far fewer than what it would replace
 * (--allow-fewer-rows imports that one: a register that really shrank), and one carrying a date
 * after today or before the register began (date-bounds.ts). A path that is not a regular file (a
 * FIFO, a device, a directory) is refused before anything is opened (exit 66). --force re-imports
 * a file already imported (or an older EDINET list). The store is the one the gateway is
 * configured with (MONGODB_URI, else the SQLite files in DATA_DIR/store); gateways running on it
 * keep answering, and pick the import up once it completes.
 */
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { headOf } from '../domain/registry/files/csv-entries';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SingleBar } from 'cli-progress';
import { loadConfig } from '../config/env';
import type { GatewayStore } from '../core/store/gateway-store';
import { openGatewayStore } from '../core/store/open-gateway-store';
import { dateInName, importRegistryFile, type ImportSummary } from '../domain/registry/files/importer';
import { NTA_ENCODINGS, type NtaEncoding } from '../domain/registry/files/nta-decode';
import { type CorporateRegistryRepository } from '../domain/registry/stores/registry-repository';
import { corporateRegistryRepositories } from '../domain/registry/stores/registry-stores';
import { isEdinetCodeList } from '../domain/registry/files/edinet-code-list';
import { importEdinetFile, type EdinetImportSummary } from '../domain/registry/files/edinet-importer';
import { looksLikeInvoiceFile } from '../domain/registry/files/invoice-file';
import { importInvoiceFile, type InvoiceImportSummary } from '../domain/registry/files/invoice-importer';
import { mustBeRegularFile, NotARegularFileError } from '../domain/registry/files/regular-file';
import { invoiceRegisterStores } from '../domain/registry/stores/invoice-stores';

export type FileFormat = 'nta' | 'edinet' | 'invoice';

/** What a file is, from the first bytes of its CSV (of the first .csv entry of a zip). */
export async function formatOf(file: string): Promise<FileFormat> {
  const head = await headOf(file);
  if (isEdinetCodeList(head)) return 'edinet';
  if (looksLikeInvoiceFile(head.toString('utf8'))) return 'invoice';
  return 'nta';
}

export type AnySummary =
  | ({ format: 'nta' } & ImportSummary)
  | ({ format: 'edinet' } & EdinetImportSummary)
  | ({ format: 'invoice' } & InvoiceImportSummary);

export interface ImportFilesOptions {
  /** Re-imports files already imported (and an EDINET list older than the one held). */
  force?: boolean;
  /** Imports a full file with far fewer rows than what it replaces (full-file-guard.ts). */
  allowFewerRows?: boolean;
  progress?: boolean;
  encoding?: NtaEncoding;
}

/** Imports every file into its own repository: NTA files in date order, the others as given. */
export async function importFiles(
  files: readonly string[],
  store: Pick<GatewayStore, 'open'>,
  options: ImportFilesOptions = {},
): Promise<AnySummary[]> {
  const out: AnySummary[] = [];
  const byFormat = new Map<FileFormat, string[]>();
  for (const f of files) {
    const format = await formatOf(f);
    byFormat.set(format, [...(byFormat.get(format) ?? []), f]);
  }
  const nta = byFormat.get('nta') ?? [];
  if (nta.length > 0) {
    const registry = await store.open(corporateRegistryRepositories);
    for (const s of await runImport(nta, registry, options)) out.push({ format: 'nta', ...s });
  }
  for (const f of byFormat.get('edinet') ?? []) {
    const registry = await store.open(corporateRegistryRepositories);
    const { force, allowFewerRows } = options;
    out.push({ format: 'edinet', ...(await importEdinetFile(registry, f, { force, allowFewerRows })) });
  }
  const invoices = byFormat.get('invoice') ?? [];
  if (invoices.length > 0) {
    const register = await store.open(invoiceRegisterStores);
    for (const f of orderFiles(invoices)) {
      const { force, allowFewerRows } = options;
      out.push({ format: 'invoice', ...(await importInvoiceFile(register, f, { force, allowFewerRows })) });
    }
  }
  return out;
}

function describeAny(s: AnySummary): string {
  if (s.format === 'nta') return describe(s);
  if (s.format === 'edinet') {
    if (s.skipped)
      return `${s.file}: EDINET code list of ${s.as_of}, ${s.skipped.replace(/_/g, ' ')}: nothing to do`;
    return `${s.file} (EDINET code list of ${s.as_of}): ${s.filers} filers, ${s.with_corporate_number} with a corporate number`;
  }
  if (s.skipped_already_imported)
    return `${s.file}: already imported (sha256 ${s.sha256.slice(0, 12)}), nothing to do`;
  return `${s.file} (invoice register, ${s.kind}): ${s.rows} registrations in ${s.seconds.toFixed(1)} s; newest update ${s.as_of ?? '-'}`;
}

export function orderFiles(files: readonly string[]): string[] {
  // Stable: files without a date keep their command-line order, before dated ones.
  return files
    .map((f, i) => ({ f, i, d: dateInName(f) }))
    .sort((a, b) => a.d.localeCompare(b.d) || a.i - b.i)
    .map((x) => x.f);
}

function describe(s: ImportSummary): string {
  if (s.skipped_already_imported)
    return `${s.file}: already imported (sha256 ${s.sha256.slice(0, 12)}), nothing to do`;
  const rate = s.seconds > 0 ? Math.round(s.rows / s.seconds) : s.rows;
  const encoding = `${s.encoding ?? '-'}${s.encoding_forced ? ', as forced' : ', detected'}`;
  return [
    `${s.file} (${s.kind}, ${encoding}): ${s.rows} rows in ${s.seconds.toFixed(1)} s (${rate} rows/s)`,
    `  created ${s.created}, updated ${s.updated}, unchanged ${s.unchanged}`,
    `  renamed ${s.renamed}, closed ${s.closed_now}, deleted ${s.deleted}; newest update date ${s.as_of ?? '-'}`,
  ].join('\n');
}

export async function runImport(
  files: readonly string[],
  registry: CorporateRegistryRepository,
  options: ImportFilesOptions = {},
): Promise<ImportSummary[]> {
  const summaries: ImportSummary[] = [];
  for (const file of orderFiles(files)) {
    const bar =
      options.progress === false
        ? undefined
        : new SingleBar({
            format: `${path.basename(file)} {phase} [{bar}] {percentage}% | {rows} rows | {eta_formatted} left`,
            stream: process.stderr,
            noTTYOutput: true,
            notTTYSchedule: 5_000,
            hideCursor: true,
          });
    bar?.start(1, 0, { rows: 0, phase: 'check' });
    let phase = 'check';
    try {
      const summary = await importRegistryFile(registry, file, {
        force: options.force,
        allowFewerRows: options.allowFewerRows,
        encoding: options.encoding,
        onProgress: (p) => {
          // Each pass reads the whole file: the bar restarts (and its estimate) for the second.
          if (p.phase !== phase) {
            phase = p.phase;
            bar?.start(Math.max(1, p.totalBytes), 0, { rows: 0, phase });
          }
          bar?.setTotal(Math.max(1, p.totalBytes));
          bar?.update(p.bytes, { rows: p.rows, phase });
        },
      });
      summaries.push(summary);
    } finally {
      bar?.stop();
    }
  }
  return summaries;
}

const USAGE =
  'usage: npm run import:registry -- <file.csv|file.zip> [more files] [--encoding utf-8|shift_jis] [--force] [--allow-fewer-rows] [--json]';

function argsOf(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        force: { type: 'boolean' },
        'allow-fewer-rows': { type: 'boolean' },
        json: { type: 'boolean' },
        encoding: { type: 'string' },
      },
    });
  } catch (err) {
    // An unknown or misspelt option: say which, with the usage, never a stack trace.
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(64);
  }
}

async function main(): Promise<void> {
  const { values, positionals } = argsOf(process.argv.slice(2));
  const encoding = values.encoding
    ?.toLowerCase()
    .replace(/^utf8$/, 'utf-8')
    .replace(/^(sjis|cp932|windows-31j)$/, 'shift_jis');
  if (
    positionals.length === 0 ||
    (encoding !== undefined && !NTA_ENCODINGS.includes(encoding as NtaEncoding))
  ) {
    console.error(USAGE);
    process.exit(64);
  }
  const missing = positionals.filter((f) => !existsSync(f));
  if (missing.length > 0) {
    console.error(`not found: ${missing.join(', ')}`);
    process.exit(66);
  }
  // A FIFO or a device would be opened and waited on for ever: refused before the store opens.
  for (const f of positionals) {
    const refused = await mustBeRegularFile(f).then(
      () => null,
      (err: unknown) => err,
    );
    if (refused instanceof NotARegularFileError) {
      console.error(`import refused: ${refused.message}\nhint: ${refused.hint} Nothing was imported.`);
      process.exit(66);
    }
  }
  const config = loadConfig(process.env);
  let store: GatewayStore | undefined;
  try {
    store = await openGatewayStore(config.gateway);
  } catch (err) {
    console.error((err as Error).message);
    await store?.close();
    process.exit(75);
  }
  try {
    const summaries = await importFiles(positionals, store, {
      force: values.force,
      allowFewerRows: values['allow-fewer-rows'],
      progress: !values.json,
      encoding: encoding as NtaEncoding | undefined,
    });
    if (values.json) console.log(JSON.stringify(summaries, null, 2));
    else for (const s of summaries) console.log(describeAny(s));
  } catch (err) {
    console.error(`import failed: ${(err as Error).message}`);
    // The refusals of every format (NtaFileError, InvoiceFileError, EdinetCodeListError) carry one.
    const { hint } = err as { hint?: string };
    if (hint) console.error(`hint: ${hint} Nothing of this file was imported.`);
    process.exitCode = 65;
  } finally {
    await store.close();
  }
}

if (require.main === module) {
  void main();
}
