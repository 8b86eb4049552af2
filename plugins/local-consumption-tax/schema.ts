import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';

const RATE = {
  type: 'object',
  required: ['total_percent', 'national_percent', 'local_percent'],
  properties: {
    total_percent: { type: 'number', description: 'The whole rate, percent of the price.' },
    national_percent: { type: 'number', description: 'The national consumption tax, percent of the price.' },
    local_percent: {
      type: 'number',
      description: 'Local consumption tax (地方消費税) as a percent of the price.',
    },
    applies_to: { type: 'string', description: 'What the reduced rate applies to.' },
  },
  description: 'The standard rate: total_percent, national_percent, local_percent.',
};

/** An invoice-system phase: the one in force (invoice_system) and each of history.invoice_phases. */
const INVOICE_PHASE = {
  type: 'object',
  required: ['phase', 'qualified_invoice_required', 'non_registered_purchase_credit_percent', 'from', 'to'],
  properties: {
    phase: {
      enum: ['before_itemised_invoice_method', 'itemised_invoice_method', 'qualified_invoice_system'],
      description: 'The invoice-system phase.',
    },
    name_ja: { type: 'string', description: 'The Japanese name of a coded value, holiday or phase.' },
    description: { type: 'string', description: 'A description in words.' },
    qualified_invoice_required: {
      type: 'boolean',
      description: 'Whether a qualified invoice is needed to take the input credit.',
    },
    non_registered_purchase_credit_percent: {
      type: ['integer', 'null'],
      description:
        'Share of deemed input tax creditable on purchases from businesses that are not registered issuers.',
    },
    from: {
      type: 'string',
      description: 'The first day or month of a period (included); null when open-ended.',
      format: 'date',
    },
    to: {
      type: ['string', 'null'],
      description: 'The last day or month of a period (included); null when open-ended.',
    },
    basis: {
      type: 'string',
      description: 'What the period rests on, in words: the law or reform and what it set.',
    },
    transitional_credit_cap: {
      description:
        "Yearly cap on purchases from one non-registered supplier that can take the transitional credit, by the buyer's tax period; null where no cap applies.",
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['yearly_purchases_per_supplier_jpy', 'tax_periods_starting_from', 'basis'],
          properties: {
            yearly_purchases_per_supplier_jpy: {
              type: 'integer',
              description: 'The cap, in yen a year per supplier.',
            },
            tax_periods_starting_from: {
              type: 'string',
              description: "The buyer's tax periods the cap applies to, by their start date.",
              format: 'date',
            },
            basis: {
              type: 'string',
              description: 'The law or transitional measure the cap rests on, in words.',
            },
            previous: {
              type: 'object',
              description: 'The cap before this one.',
              properties: {
                yearly_purchases_per_supplier_jpy: {
                  type: 'integer',
                  description: 'The cap, in yen a year per supplier.',
                },
                tax_periods_starting_from: {
                  type: 'string',
                  description: "The buyer's tax periods the cap applies to, by their start date.",
                  format: 'date',
                },
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
    date: {
      type: 'string',
      description: 'The date asked about, YYYY-MM-DD (Asia/Tokyo).',
      format: 'date',
    },
    date_source: {
      enum: ['query', 'default_today_asia_tokyo'],
      description: 'query: date was given; otherwise today in Asia/Tokyo was applied.',
    },
    consumption_tax_applies: { type: 'boolean', description: 'Whether consumption tax applied on the date.' },
    standard_rate: {
      oneOf: [RATE, { type: 'null' }],
      description: 'The standard rate: total_percent, national_percent, local_percent.',
    },
    reduced_rate: {
      oneOf: [RATE, { type: 'null' }],
      description: 'The reduced rate and what it applies to; null when none.',
    },
    rate_period: {
      type: 'object',
      description: 'The period the rates are in force: from, to, basis.',
      required: ['from', 'to', 'basis'],
      properties: {
        from: {
          type: ['string', 'null'],
          description: 'The first day or month of a period (included); null when open-ended.',
        },
        to: {
          type: ['string', 'null'],
          description: 'The last day or month of a period (included); null when open-ended.',
        },
        basis: {
          type: 'string',
          description: 'What the period rests on, in words: the law or reform and what it set.',
        },
      },
    },
    invoice_system: {
      oneOf: [{ type: 'null' }, INVOICE_PHASE],
      description: 'The invoice-system phase in force on the date; null before consumption tax.',
    },
    note: { type: 'string', description: 'One sentence a buyer reads about the object it is in.' },
    history: {
      type: 'object',
      description: 'With verbose: every rate period and invoice-system phase.',
      properties: {
        rate_periods: {
          type: 'array',
          description: 'With verbose: every rate period.',
          items: {
            type: 'object',
            required: ['from', 'to', 'standard_rate', 'reduced_rate', 'basis'],
            properties: {
              from: {
                type: 'string',
                description: 'The first day or month of a period (included); null when open-ended.',
                format: 'date',
              },
              to: {
                type: ['string', 'null'],
                description: 'The last day or month of a period (included); null when open-ended.',
              },
              standard_rate: RATE,
              reduced_rate: {
                oneOf: [RATE, { type: 'null' }],
                description: 'The reduced rate and what it applies to; null when none.',
              },
              basis: {
                type: 'string',
                description: 'What the period rests on, in words: the law or reform and what it set.',
              },
            },
          },
        },
        invoice_phases: {
          type: 'array',
          description: 'With verbose: every invoice-system phase.',
          items: INVOICE_PHASE,
        },
      },
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
