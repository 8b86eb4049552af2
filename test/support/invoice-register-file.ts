/**
 * Builds files in the layout the NTA publishes its invoice register in (domain/registry/
 * invoice-file.ts: 24 columns, no header, quoted text), for tests: the register itself cannot be
 * downloaded here. Rows are built from real corporations' registration numbers (T + their
 * corporate number), with test dates.
 */
import { writeFileSync } from 'node:fs';
import { INVOICE_COLUMNS, type InvoiceRow } from '../../domain/registry/files/invoice-file';

const QUOTED = new Set([
  'registratedNumber',
  'address',
  'addressRequest',
  'kana',
  'name',
  'addressInside',
  'tradeName',
  'popularName_previousName',
]);

export function invoiceRow(
  fields: Partial<InvoiceRow> & Pick<InvoiceRow, 'registratedNumber' | 'name'>,
): InvoiceRow {
  const row = Object.fromEntries(INVOICE_COLUMNS.map((c) => [c, ''])) as InvoiceRow;
  return {
    ...row,
    sequenceNumber: '1',
    process: '01',
    correct: '0',
    kind: '2',
    country: '1',
    latest: '1',
    registrationDate: '2023-10-01',
    ...fields,
  };
}

export function invoiceCsvLine(row: InvoiceRow): string {
  return INVOICE_COLUMNS.map((c) => (QUOTED.has(c) ? `"${row[c].replace(/"/g, '""')}"` : row[c])).join(',');
}

export function writeInvoiceFile(file: string, rows: readonly InvoiceRow[], tail = ''): void {
  writeFileSync(
    file,
    rows.map((r, i) => invoiceCsvLine({ ...r, sequenceNumber: String(i + 1) })).join('\n') + '\n' + tail,
  );
}
