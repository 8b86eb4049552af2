/**
 * Standard monthly remuneration (標準報酬月額): the grade a monthly remuneration falls in, for
 * health insurance (grades 1-50) and employees' pension (grades 1-32), from data/payroll.
 */
import { Lifecycle, scoped } from 'tsyringe';
import { loadDataFile, type TableProvenance } from '../shared/data-file';
import { PeriodTable, type InForce } from './periods';
import type { MonthSpan, YearMonth } from './year-month';

export interface Grade {
  grade: number;
  /** The standard monthly remuneration of the grade (標準報酬月額), in yen. */
  monthly_amount: number;
  /** Lowest monthly remuneration in the grade (included). */
  pay_from: number;
  /** First monthly remuneration above the grade (excluded); null for the top grade. */
  pay_below: number | null;
}

interface GradeScale {
  label: string;
  premium_months: MonthSpan;
  grades: Grade[];
}

interface GradeFile {
  health_insurance: { periods: GradeScale[] };
  employees_pension: { periods: GradeScale[] };
}

export const GRADE_TABLE = 'payroll/standard-remuneration-grades.json';

export interface GradesInForce {
  health: InForce<Grade>;
  pension: InForce<Grade>;
}

@scoped(Lifecycle.ContainerScoped)
export class StandardRemunerationTable {
  readonly provenance: TableProvenance;
  /** Grade scales by premium month (a scale changes when the law adds or moves grades). */
  readonly health: PeriodTable<readonly Grade[]>;
  readonly pension: PeriodTable<readonly Grade[]>;

  constructor() {
    const file = loadDataFile<GradeFile>(GRADE_TABLE);
    this.provenance = file.provenance;
    this.health = scales(file.health_insurance.periods, 'health_insurance');
    this.pension = scales(file.employees_pension.periods, 'employees_pension');
  }

  /** The health and pension grades of a monthly remuneration (yen, 0 or more) in a premium month. */
  gradesFor(monthlyRemuneration: number, premiumMonth: YearMonth): GradesInForce {
    const pick = (t: PeriodTable<readonly Grade[]>): InForce<Grade> => {
      const s = t.at(premiumMonth);
      return { ...s, value: gradeIn(s.value, monthlyRemuneration) };
    };
    return { health: pick(this.health), pension: pick(this.pension) };
  }
}

function scales(periods: GradeScale[], name: string): PeriodTable<readonly Grade[]> {
  return new PeriodTable(
    `${GRADE_TABLE} ${name}`,
    periods.map((p) => ({ label: p.label, months: p.premium_months, value: checkScale(p.grades, name) })),
  );
}

/** The grade of a monthly remuneration in one scale. */
export function gradeIn(grades: readonly Grade[], pay: number): Grade {
  // Grades are few (50) and ordered; the last whose lower bound is reached is the one.
  let found = grades[0];
  for (const g of grades) if (pay >= g.pay_from) found = g;
  return found;
}

/** Refuses a table with gaps, overlaps or misnumbered grades: a wrong grade is a wrong premium. */
function checkScale(grades: Grade[], name: string): Grade[] {
  grades.forEach((g, i) => {
    const next = grades[i + 1];
    const ok =
      g.grade === i + 1 &&
      (i > 0 || g.pay_from === 0) &&
      (next ? g.pay_below === next.pay_from && next.monthly_amount > g.monthly_amount : g.pay_below === null);
    if (!ok) throw new Error(`${GRADE_TABLE}: ${name} grade ${i + 1} is not contiguous with the next`);
  });
  return grades;
}
