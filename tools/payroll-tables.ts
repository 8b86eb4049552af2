/**
 * The yearly payroll update, checked before it is committed:
 *   npm run payroll:tables
 *       loads every table in data/payroll through the same loaders as the gateway (so every boot
 *       check runs), lists each component's periods, their official sources and cross-checks, and
 *       the pay months answered from confirmed tables; exits 1 on a problem.
 *   npm run payroll:tables -- --compare data/payroll/withholding-monthly-2028.json <transcription.txt>
 *       compares a withholding table cell by cell with an independent transcription (one line per
 *       row "<from>: <tax for 0..7 dependants>", trailing zeros omitted; "S<start> <rate>: <base tax
 *       for 0..7>" per segment above the table) and lists every cell that differs.
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../config/paths';
import { PayrollCalculator, PAYROLL_COMPONENTS } from '../domain/payroll/payroll-calculator';
import { SocialInsuranceRates } from '../domain/payroll/premium-rates';
import { StandardRemunerationTable } from '../domain/payroll/standard-remuneration';
import { WithholdingTables } from '../domain/payroll/withholding';
import type { TableProvenance } from '../domain/shared/data-file';
import { isOfficialUrl } from '../domain/shared/official-hosts';

export interface Report {
  lines: string[];
  problems: string[];
}

function officialUrls(p: TableProvenance): string[] {
  return p.sources.map((s) => s.url).filter((u): u is string => isOfficialUrl(u));
}

/** Loads every payroll table and reports its periods and provenance; problems are what to fix. */
export function payrollTablesReport(): Report {
  const lines: string[] = [];
  const problems: string[] = [];
  let calculator: PayrollCalculator;
  try {
    calculator = new PayrollCalculator(
      new StandardRemunerationTable(),
      new SocialInsuranceRates(),
      new WithholdingTables(),
    );
  } catch (err) {
    return { lines, problems: [(err as Error).message] };
  }
  const { rates, grades, withholding } = calculator;
  const provenanceOf = {
    income_tax: withholding.tables.map((t) => t.provenance),
    health_insurance: [rates.provenance.health],
    child_support: [rates.provenance.child_support],
    pension: [rates.provenance.pension],
    employment_insurance: [rates.provenance.employment_insurance],
    health_grades: [grades.provenance],
    pension_grades: [grades.provenance],
  };
  for (const c of PAYROLL_COMPONENTS) {
    const { table, keyedBy } = calculator.tableOf(c);
    lines.push(
      `${c} (by ${keyedBy.replace('_', ' ')}): ${table.covered.from ?? '…'} to ${table.covered.to ?? 'open'}`,
    );
    for (const p of provenanceOf[c]) {
      const official = officialUrls(p);
      lines.push(
        `  as of ${p.as_of}; ${official.length} official source(s); ${(p.cross_checked_against ?? []).length} cross-check(s)`,
      );
      if (official.length === 0) problems.push(`${c}: no official source with a URL`);
      if (!p.applies) problems.push(`${c}: provenance has no applies span`);
    }
  }
  const { from, to } = calculator.confirmedPayMonths;
  lines.push(`confirmed pay months: ${from} to ${to}; provisional from ${calculator.provisionalFrom}`);
  return { lines, problems };
}

interface Transcription {
  rows: Map<number, number[]>;
  segments: Map<number, { rate: string; base: number[] }>;
}

export function parseTranscription(text: string): Transcription {
  const rows = new Map<number, number[]>();
  const segments = new Map<number, { rate: string; base: number[] }>();
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [head, values] = line.split(':');
    const taxes = (values ?? '').trim().split(/\s+/).filter(Boolean).map(Number);
    while (taxes.length < 8) taxes.push(0);
    if (head.startsWith('S')) {
      const [start, rate] = head.slice(1).trim().split(/\s+/);
      segments.set(Number(start), { rate, base: taxes });
    } else {
      rows.set(Number(head.trim()), taxes);
    }
  }
  return { rows, segments };
}

interface WithholdingJson {
  zero_tax_below: number;
  rows: Array<{ from: number; tax: number[] }>;
  above_table: Array<{ from: number; rate_percent: string; base_tax: number[] }>;
}

/** Every cell where a withholding table and a transcription disagree (or one lacks the other's row). */
export function compareWithholding(table: WithholdingJson, t: Transcription): Report {
  const problems: string[] = [];
  let cells = 0;
  const tableRows = new Map(table.rows.map((r) => [r.from, r.tax]));
  // A transcription may list the zero band as a row starting at 0.
  const starts = new Set([...tableRows.keys(), ...[...t.rows.keys()].filter((k) => k !== 0)]);
  for (const start of [...starts].sort((a, b) => a - b)) {
    const ours = tableRows.get(start);
    const theirs = t.rows.get(start);
    if (!ours || !theirs) {
      problems.push(`row ${start}: only in the ${ours ? 'table' : 'transcription'}`);
      continue;
    }
    for (let n = 0; n < 8; n++, cells++) {
      if (ours[n] !== theirs[n])
        problems.push(`row ${start}, ${n} dependants: table ${ours[n]}, transcription ${theirs[n]}`);
    }
  }
  for (const seg of table.above_table) {
    const theirs = t.segments.get(seg.from);
    if (!theirs) {
      problems.push(`segment ${seg.from}: not in the transcription`);
      continue;
    }
    // Transcriptions write the rate as a percent (20.42) or a fraction (0.2042).
    const theirPercent = Number(theirs.rate) < 1 ? Number(theirs.rate) * 100 : Number(theirs.rate);
    if (Math.abs(theirPercent - Number(seg.rate_percent)) > 1e-9)
      problems.push(`segment ${seg.from}: rate ${seg.rate_percent}% vs ${theirs.rate}%`);
    for (let n = 0; n < 8; n++, cells++) {
      if (seg.base_tax[n] !== theirs.base[n])
        problems.push(
          `segment ${seg.from}, ${n} dependants: table ${seg.base_tax[n]}, transcription ${theirs.base[n]}`,
        );
    }
  }
  if (t.segments.size !== table.above_table.length)
    problems.push('the transcription has a different number of segments');
  return { lines: [`${cells} cells compared`], problems };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  let report: Report;
  if (args[0] === '--compare' && args.length === 3) {
    const read = (f: string) => readFileSync(path.resolve(PROJECT_ROOT, f), 'utf8');
    report = compareWithholding(
      JSON.parse(read(args[1])) as WithholdingJson,
      parseTranscription(read(args[2])),
    );
  } else if (args.length === 0) {
    report = payrollTablesReport();
  } else {
    console.error('usage: npm run payroll:tables [-- --compare <withholding.json> <transcription.txt>]');
    process.exit(2);
  }
  for (const l of report.lines) console.log(l);
  for (const p of report.problems) console.error(`problem: ${p}`);
  process.exit(report.problems.length > 0 ? 1 : 0);
}
