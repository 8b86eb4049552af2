import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { PAYROLL_FIELD_PROPERTIES, PAYROLL_REQUIRED_FIELDS } from '../../domain/payroll/payroll-view-schema';

export const payrollCalcPayloadSchema = {
  type: 'object',
  required: [...PAYROLL_REQUIRED_FIELDS, 'year_month_source'],
  properties: {
    ...PAYROLL_FIELD_PROPERTIES,
    year_month_source: {
      enum: ['default_current_month_asia_tokyo'],
      description:
        'The month applied is always the current month in Asia/Tokyo (this endpoint takes no month).',
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
