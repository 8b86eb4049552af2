import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';
import { compareWithholding, parseTranscription, payrollTablesReport } from '../../tools/payroll-tables';

const TABLE_2026 = path.join(PROJECT_ROOT, 'data/payroll/withholding-monthly-2026.json');
const FIXTURE_2026 = path.join(PROJECT_ROOT, 'test/domain/payroll/fixtures/renjaku-2026-monthly-kou.txt');

describe('npm run payroll:tables (the yearly update check)', () => {
  it('loads every payroll table, finds no problem, and states the confirmed pay months', () => {
    const r = payrollTablesReport();
    expect(r.problems).to.deep.equal([]);
    expect(r.lines.join('\n')).to.match(
      /confirmed pay months: \d{4}-\d{2} to \d{4}-\d{2}; provisional from \d{4}-\d{2}/,
    );
    expect(r.lines.join('\n')).to.match(/^income_tax \(by pay month\)/m);
  });

  it('agrees with an independent transcription cell by cell, and names every cell that differs', () => {
    const table = JSON.parse(readFileSync(TABLE_2026, 'utf8'));
    const text = readFileSync(FIXTURE_2026, 'utf8');
    const same = compareWithholding(table, parseTranscription(text));
    expect(same.problems).to.deep.equal([]);
    expect(same.lines).to.deep.equal([`${(231 + 9) * 8} cells compared`]);
    const altered = text.replace(/^201000: 4410 /m, '201000: 4420 ');
    expect(compareWithholding(table, parseTranscription(altered)).problems).to.deep.equal([
      'row 201000, 0 dependants: table 4410, transcription 4420',
    ]);
  });

  it('runs as a command: exit 0 on the tables, exit 1 listing a differing cell', () => {
    const tool = path.join(PROJECT_ROOT, 'dist/tools/payroll-tables.js');
    expect(execFileSync(process.execPath, [tool], { encoding: 'utf8' })).to.match(/confirmed pay months/);
    let failed: { status: number; stderr: string } | undefined;
    try {
      execFileSync(
        process.execPath,
        [tool, '--compare', TABLE_2026, 'test/domain/payroll/fixtures/renjaku-2026-monthly-kou.txt'],
        {
          encoding: 'utf8',
        },
      );
    } catch (err) {
      failed = err as { status: number; stderr: string };
    }
    expect(failed).to.equal(undefined);
    try {
      execFileSync(process.execPath, [tool, '--compare', TABLE_2026, 'package.json'], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (err) {
      failed = err as { status: number; stderr: string };
    }
    expect(failed?.status).to.equal(1);
    expect(failed?.stderr).to.match(/problem: row 105000: only in the table/);
  });
});
