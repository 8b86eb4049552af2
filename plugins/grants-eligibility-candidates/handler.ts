import { findPrefecture } from '../../domain/shared/prefectures';
import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { grantsAttribution } from '../../domain/grants/attribution';
import { GrantsCatalogue } from '../../domain/grants/catalogue';
import { bySoonestDeadline } from '../../domain/grants/filters';
import { summarise, type GrantSummary } from '../../domain/grants/grant-record';
import type { LabelledList } from '../../domain/grants/taxonomy';
import { prefectureView } from '../../domain/grants/payloads';
import { findIndustry, findPurpose } from '../../domain/grants/taxonomy';
import { tokyoDateOf } from '../../domain/grants/tokyo-dates';
import {
  evaluateCriteria,
  failedCondition,
  fitScore,
  whyListed,
  type CompanyProfile,
  type CriterionName,
  type CriterionResult,
} from './criteria';
import type { GrantsEligibilityCandidatesQuery } from './query';

type Reason = Pick<CriterionResult, 'criterion' | 'reason'>;

export interface Candidate {
  rank: number;
  review_required: true;
  fit_score: number;
  grant: GrantSummary & { industries: LabelledList | null; purposes: LabelledList | null };
  criteria_met: Reason[];
  criteria_failed: Reason[];
  criteria_not_checked: Reason[];
  /** Why the grant is listed, in one sentence. */
  reason: string;
}

export interface CandidatesPayload extends EndpointPayload {
  today: string;
  review_required: true;
  /** The company profile as read: the parameters, the prefecture, industry and purpose resolved. */
  query: Record<string, unknown>;
  count: number;
  considered: number;
  excluded: { count: number; by_condition: Partial<Record<CriterionName, number>> };
  candidates: Candidate[];
}

/** Open grants examined per call (the soonest-closing ones the source lists). */
const EXAMINED = 50;

const reason = (c: CriterionResult): Reason => ({ criterion: c.criterion, reason: c.reason });

@injectable()
export class GrantsEligibilityCandidatesHandler implements EndpointHandler<
  GrantsEligibilityCandidatesQuery,
  CandidatesPayload
> {
  constructor(private readonly catalogue: GrantsCatalogue) {}

  coverage(now: Date): DataCoverage {
    return this.catalogue.coverage(now, 'listing');
  }

  async handle(q: GrantsEligibilityCandidatesQuery, ctx: HandlerContext): Promise<CandidatesPayload> {
    const profile: CompanyProfile = {
      pref: findPrefecture(q.pref)!,
      industry: q.industry === undefined ? undefined : findIndustry(q.industry),
      employees: q.employees,
      capital_jpy: q.capital_jpy,
      purpose: q.purpose === undefined ? undefined : findPurpose(q.purpose),
    };
    // Why each examined grant was left out; a detail-level check overrides a list-level one.
    const leftOut = new Map<string, CriterionName | null>();
    const found = await this.catalogue.find(
      {
        request: { acceptingOnly: true },
        keep: (r, level) => {
          const failed = failedCondition(evaluateCriteria(r, profile, level));
          leftOut.set(r.grant_id, failed?.criterion ?? null);
          return failed === undefined;
        },
        order: bySoonestDeadline,
        limit: EXAMINED,
      },
      ctx.now,
    );
    const ranked = found.records
      .map((r) => ({ r, results: evaluateCriteria(r, profile) }))
      .map(({ r, results }) => ({ r, results, score: fitScore(results) }))
      .sort((a, b) => b.score - a.score || bySoonestDeadline(a.r, b.r))
      .slice(0, q.limit);
    const byCondition: Partial<Record<CriterionName, number>> = {};
    for (const criterion of leftOut.values()) {
      if (criterion) byCondition[criterion] = (byCondition[criterion] ?? 0) + 1;
    }
    const candidates: Candidate[] = ranked.map(({ r, results, score }, i) => ({
      rank: i + 1,
      review_required: true,
      fit_score: score,
      grant: {
        ...summarise(r),
        industries: r.industries,
        purposes: r.purposes,
      },
      criteria_met: results.filter((c) => c.status === 'met').map(reason),
      criteria_failed: results.filter((c) => c.status === 'not_met').map(reason),
      criteria_not_checked: results.filter((c) => c.status === 'not_checked').map(reason),
      reason: whyListed(results),
    }));
    return {
      today: tokyoDateOf(ctx.now),
      review_required: true,
      query: {
        pref: prefectureView(profile.pref),
        industry: profile.industry ?? null,
        employees: profile.employees ?? null,
        capital_jpy: profile.capital_jpy ?? null,
        purpose: profile.purpose ?? null,
      },
      count: candidates.length,
      considered: leftOut.size,
      excluded: { count: [...leftOut.values()].filter((c) => c !== null).length, by_condition: byCondition },
      candidates,
      _attribution: grantsAttribution(found.provenance),
      _provenance: found.provenance,
    };
  }
}
