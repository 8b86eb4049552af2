import { PayrollPersonQuery } from '../../domain/payroll/person-query';

/** Exactly the shared payroll parameters: the rates applied are those of the current month. */
export class PayrollCalcQuery extends PayrollPersonQuery {}
