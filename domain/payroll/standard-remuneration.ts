/**
 * Standard monthly remuneration (標準報酬月額): the grade a monthly remuneration falls in, for
 * health insurance (grades 1-50) and employees' pension (grades 1-32), from data/payroll.
 */
import { Lifecycle, scoped } from 'tsyringe';
import { loadDataFile, type TableProvenance } from '../shared/data-file';
import type { MonthSpan } from './year-month';

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
  valid_premium_months: MonthSpan;
  grades: Grade[];
}

interface GradeFile {
  health_insurance: GradeScale;
  employees_pension: GradeScale;
}

export const GRADE_TABLE = 'payroll/standard-remuneration-grades.json';

@scoped(Lifecycle.ContainerScoped)
export class StandardRemunerationTable {
  readonly provenance: TableProvenance;
  readonly health: Readonly<GradeScale>;
  readonly pension: Readonly<GradeScale>;

  constructor() {
    const file = loadDataFile<GradeFile>(GRADE_TABLE);
    this.provenance = file.provenance;
    this.health = checkScale(file.health_insurance, 'health_insurance');
    this.pension = checkScale(file.employees_pension, 'employees_pension');
  }

  /** The health and pension grades of a monthly remuneration (yen, 0 or more). */
  gradesFor(monthlyRemuneration: number): { health: Grade; pension: Grade } {
    return {
      health: gradeIn(this.health.grades, monthlyRemuneration),
      pension: gradeIn(this.pension.grades, monthlyRemuneration),
    };
  }
}

function gradeIn(grades: readonly Grade[], pay: number): Grade {
  // Grades are few (50) and ordered; the last whose lower bound is reached is the one.
  let found = grades[0];
  for (const g of grades) if (pay >= g.pay_from) found = g;
  return found;
}

/** Refuses a table with gaps, overlaps or misnumbered grades: a wrong grade is a wrong premium. */
function checkScale(scale: GradeScale, name: string): GradeScale {
  scale.grades.forEach((g, i) => {
    const next = scale.grades[i + 1];
    const ok =
      g.grade === i + 1 &&
      (i > 0 || g.pay_from === 0) &&
      (next ? g.pay_below === next.pay_from && next.monthly_amount > g.monthly_amount : g.pay_below === null);
    if (!ok) throw new Error(`${GRADE_TABLE}: ${name} grade ${i + 1} is not contiguous with the next`);
  });
  return scale;
}
