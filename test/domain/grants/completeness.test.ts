import { expect } from 'chai';
import {
  COMPLETENESS_WEIGHTS,
  completenessOf,
  type CompletenessInput,
} from '../../../domain/grants/completeness';
import { normaliseGrant } from '../../../domain/grants/grant-record';
import { IDS, SNAPSHOT_ITEMS, snapshotItem } from '../../support/grants-snapshot';

const NOW = new Date('2026-11-22T03:00:00Z');
const ALL: CompletenessInput = {
  deadline: true,
  acceptance_start: true,
  target_area: true,
  industries: true,
  employee_limit: true,
  purposes: true,
  subsidy_rate: true,
  description: true,
  official_page_url: true,
  contact: true,
  amount_status: 'ok',
};

describe('grants: data_completeness_score', () => {
  it('has documented weights that sum to exactly 1', () => {
    const sum = Object.values(COMPLETENESS_WEIGHTS).reduce((a, b) => a + b, 0);
    expect(sum).to.equal(1000);
    expect(COMPLETENESS_WEIGHTS).to.deep.equal({
      deadline: 150,
      max_amount: 150,
      acceptance_start: 50,
      target_area: 100,
      industries: 100,
      employee_limit: 100,
      subsidy_rate: 100,
      description: 100,
      purposes: 50,
      official_page_url: 50,
      contact: 50,
    });
  });

  it('is 1 with everything stated and falls by each missing field’s weight', () => {
    expect(completenessOf(ALL)).to.deep.equal({ score: 1, missing: [] });
    expect(completenessOf({ ...ALL, deadline: false })).to.deep.equal({ score: 0.85, missing: ['deadline'] });
    expect(completenessOf({ ...ALL, contact: false, purposes: false }).score).to.equal(0.9);
    expect(completenessOf({ ...ALL, amount_status: 'ambiguous_upstream' })).to.deep.equal({
      score: 0.925,
      missing: [],
    });
    expect(completenessOf({ ...ALL, amount_status: 'unknown' })).to.deep.equal({
      score: 0.85,
      missing: ['max_amount'],
    });
    const none = Object.fromEntries(Object.keys(ALL).map((k) => [k, false])) as unknown as CompletenessInput;
    expect(completenessOf({ ...none, amount_status: 'unknown' }).score).to.equal(0);
  });

  it('scores real records: no contact in the jGrants fields, amount status counted', () => {
    const score = (id: string) => normaliseGrant(snapshotItem(id), NOW);
    expect(score(IDS.okinawaWage)).to.deep.include({
      data_completeness_score: 0.95,
      missing_fields: ['contact'],
    });
    expect(score(IDS.broadcastAmbiguous).data_completeness_score).to.equal(0.875);
    const forklift = score(IDS.tokyoForkliftUnknown);
    expect(forklift.missing_fields).to.have.members(['max_amount', 'subsidy_rate', 'contact']);
    expect(forklift.data_completeness_score).to.equal(0.7);
  });

  it('a list-level item (live search) scores low: it lacks what only the detail gives', () => {
    const listItem = {
      id: 'a0WJ200000CDe6cMAD',
      title: '【沖縄】業務改善助成金',
      target_area_search: '沖縄県',
      subsidy_max_limit: 6000000,
      acceptance_start_datetime: '2026-08-31T15:00Z',
      acceptance_end_datetime: '2026-11-30T14:59Z',
      target_number_of_employees: '従業員数の制約なし',
    };
    const r = normaliseGrant(listItem, NOW);
    expect(r.data_completeness_score).to.equal(0.55);
    expect(r.missing_fields).to.have.members([
      'industries',
      'subsidy_rate',
      'description',
      'purposes',
      'official_page_url',
      'contact',
    ]);
  });

  it('stays within 0..1 for every snapshot record', () => {
    for (const item of SNAPSHOT_ITEMS) {
      const s = normaliseGrant(item, NOW).data_completeness_score;
      expect(s, item.id).to.be.within(0, 1);
    }
  });
});
