import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';

const RATE = {
  type: 'object',
  required: ['total_percent', 'national_percent', 'local_percent'],
  properties: {
    total_percent: { type: 'number' },
    national_percent: { type: 'number' },
    local_percent: {
      type: 'number',
      description: 'Local consumption tax (地方消費税) as a percent of the price.',
    },
    applies_to: { type: 'string' },
  },
};

/** An invoice-system phase: the one in force (invoice_system) and each of history.invoice_phases. */
const INVOICE_PHASE = {
  type: 'object',
  required: ['phase', 'qualified_invoice_required', 'non_registered_purchase_credit_percent', 'from', 'to'],
  properties: {
    phase: {
      enum: ['before_itemised_invoice_method', 'itemised_invoice_method', 'qualified_invoice_system'],
    },
    name_ja: { type: 'string' },
    description: { type: 'string' },
    qualified_invoice_required: { type: 'boolean' },
    non_registered_purchase_credit_percent: {
      type: ['integer', 'null'],
      description:
        'Share of deemed input tax creditable on purchases from businesses that are not registered issuers.',
    },
    from: { type: 'string', format: 'date' },
    to: { type: ['string', 'null'] },
    basis: { type: 'string' },
    transitional_credit_cap: {
      description:
        "Yearly cap on purchases from one non-registered supplier that can take the transitional credit, by the buyer's tax period; null where no cap applies.",
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['yearly_purchases_per_supplier_jpy', 'tax_periods_starting_from', 'basis'],
          properties: {
            yearly_purchases_per_supplier_jpy: { type: 'integer' },
            tax_periods_starting_from: { type: 'string', format: 'date' },
            basis: { type: 'string' },
            previous: {
              type: 'object',
              properties: {
                yearly_purchases_per_supplier_jpy: { type: 'integer' },
                tax_periods_starting_from: { type: 'string', format: 'date' },
              },
            },
          },
        },
      ],
    },
  },
};

export const consumptionTaxPayloadSchema = {
  type: 'object',
  required: [
    'date',
    'date_source',
    'consumption_tax_applies',
    'standard_rate',
    'reduced_rate',
    'rate_period',
    'invoice_system',
    '_attribution',
    '_provenance',
  ],
  properties: {
    date: { type: 'string', format: 'date' },
    date_source: {
      enum: ['query', 'default_today_asia_tokyo'],
      description: 'query: date was given; otherwise today in Asia/Tokyo was applied.',
    },
    consumption_tax_applies: { type: 'boolean' },
    standard_rate: { oneOf: [RATE, { type: 'null' }] },
    reduced_rate: { oneOf: [RATE, { type: 'null' }] },
    rate_period: {
      type: 'object',
      required: ['from', 'to', 'basis'],
      properties: {
        from: { type: ['string', 'null'] },
        to: { type: ['string', 'null'] },
        basis: { type: 'string' },
      },
    },
    invoice_system: { oneOf: [{ type: 'null' }, INVOICE_PHASE] },
    note: { type: 'string' },
    history: {
      type: 'object',
      description: 'With verbose: every rate period and invoice-system phase.',
      properties: {
        rate_periods: {
          type: 'array',
          items: {
            type: 'object',
            required: ['from', 'to', 'standard_rate', 'reduced_rate', 'basis'],
            properties: {
              from: { type: 'string', format: 'date' },
              to: { type: ['string', 'null'] },
              standard_rate: RATE,
              reduced_rate: { oneOf: [RATE, { type: 'null' }] },
              basis: { type: 'string' },
            },
          },
        },
        invoice_phases: { type: 'array', items: INVOICE_PHASE },
      },
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
