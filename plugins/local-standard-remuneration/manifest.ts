import { definePlugin } from '../../core/plugins/contract';
import { StandardRemunerationHandler } from './handler';
import { StandardRemunerationQuery } from './query';
import { standardRemunerationPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'local-standard-remuneration',
  product: 'jp-local-pack',
  tail: 'local/social-insurance/standard-remuneration',
  priceMicroUsdc: 10_000,
  lifecycle: 'paid_open',
  summary: "Standard monthly remuneration grade (標準報酬月額) for health insurance and employees' pension",
  description:
    "The health-insurance grade (1-50) and employees' pension grade (1-32; 33 from September 2027, up to 35 from September 2029) of a monthly remuneration, under the scales in force in the current month, with the standard monthly remuneration of each grade and the pay bracket it covers (以上/未満). verbose adds both whole grade tables.",
  source: {
    name: "Standard monthly remuneration tables (Health Insurance Act Art. 40, Employees' Pension Insurance Act Art. 20), by effective month",
    freshness:
      'static statutory tables by effective month, including the enacted pension grades 33-35 from September 2027, 2028 and 2029',
    url: 'https://www.kyoukaikenpo.or.jp/about/business/insurance_rate/rate_prefectures/r08/index.html',
  },
  query: StandardRemunerationQuery,
  handler: StandardRemunerationHandler,
  payloadSchema: standardRemunerationPayloadSchema,
  examples: [
    { title: 'Grade of a 300,000 yen salary', query: { monthly_salary: 300000 } },
    { title: 'With both grade tables', query: { monthly_salary: 92999, verbose: true } },
  ],
});
