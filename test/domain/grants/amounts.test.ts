import { expect } from 'chai';
import { extractMaxAmount, findYenAmounts, statedCapAmounts } from '../../../domain/grants/amounts';
import { IDS, SNAPSHOT_ITEMS, snapshotItem } from '../../support/grants-snapshot';

describe('grants: amount extraction', () => {
  describe('reading yen amounts', () => {
    const cases: Array<[string, number[]]> = [
      ['上限額は3,000万円', [30_000_000]],
      ['１企業あたり：３００万円１案件あたり：特許 １５０万円', [3_000_000, 1_500_000]],
      ['最大1億5,000万円まで', [150_000_000]],
      ['1TEUあたり最大50,000円', [50_000]],
      ['補助率2/3、法人上限200万円、個人事業主上限50万円', [2_000_000, 500_000]],
      ['４K機材', []],
      ['令和8年度 20名以下 1/2以内', []],
      ['買い手支援類型（100億企業特例）', []],
      ['上限200万（税抜）', []],
      ['1.5億円', [150_000_000]],
    ];
    for (const [text, amounts] of cases) {
      it(`${text} → ${JSON.stringify(amounts)}`, () => {
        expect(findYenAmounts(text).map((a) => a.amount_jpy)).to.deep.equal(amounts);
      });
    }
  });

  describe('on real jGrants records', () => {
    it('ok: one cap, stated by the field and confirmed by the text (事業承継・M&A 小規模売り手 4,500,000)', () => {
      const r = extractMaxAmount(snapshotItem(IDS.maSmallSellerOk));
      expect(r.amount_extraction_status).to.equal('ok');
      expect(r.max_subsidy_amount_jpy).to.equal(4_500_000);
      expect(r.evidence.text_amounts.map((a) => [a.field, a.amount_jpy])).to.deep.equal([
        ['detail', 4_500_000],
      ]);
      expect(r.evidence.reason).to.match(/state the same cap/);
    });

    it('ok: the field and the text agree, and 100億 in 100億企業特例 is not an amount (M&A buyer 20,000,000)', () => {
      const r = extractMaxAmount(snapshotItem(IDS.maBuyerOk));
      expect(r).to.deep.include({ amount_extraction_status: 'ok', max_subsidy_amount_jpy: 20_000_000 });
      expect(r.evidence.text_amounts.map((a) => a.amount_jpy)).to.deep.equal([20_000_000]);
    });

    it('ok: field only, no text names another cap (業務改善助成金 6,000,000; 臨床調査個人票 50,000)', () => {
      for (const [id, amount] of [
        [IDS.okinawaWage, 6_000_000],
        [IDS.tokyoClinical50000, 50_000],
        [IDS.sdsOk, 1_000_000],
      ] as const) {
        const r = extractMaxAmount(snapshotItem(id));
        expect(r.amount_extraction_status, id).to.equal('ok');
        expect(r.max_subsidy_amount_jpy, id).to.equal(amount);
        expect(r.evidence.text_amounts, id).to.deep.equal([]);
      }
    });

    it('ok is not fooled by amounts outside cap clauses (売上高が100億円, 50円以上引き上げ)', () => {
      expect(extractMaxAmount(snapshotItem(IDS.growthOk))).to.include({
        amount_extraction_status: 'ok',
        max_subsidy_amount_jpy: 500_000_000,
      });
      expect(extractMaxAmount(snapshotItem(IDS.kumamotoWage)).amount_extraction_status).to.equal('ok');
    });

    it('ambiguous_upstream: the rate text names caps other than subsidy_max_limit (放送コンテンツ: 150M vs 30M, 20M)', () => {
      const r = extractMaxAmount(snapshotItem(IDS.broadcastAmbiguous));
      expect(r.amount_extraction_status).to.equal('ambiguous_upstream');
      expect(r.max_subsidy_amount_jpy).to.equal(null);
      expect(r.evidence.upstream_max_limit_jpy).to.equal(150_000_000);
      expect(r.evidence.text_amounts.map((a) => a.amount_jpy)).to.deep.equal([30_000_000, 20_000_000]);
      expect(r.evidence.reason).to.match(
        /150,000,000 yen but the texts also state 30,000,000 yen, 20,000,000 yen/,
      );
    });

    it('ambiguous_upstream: several caps in the description (外国出願: per company and per application)', () => {
      for (const id of [IDS.tottoriPatentAmbiguous, IDS.tokushimaPatentAmbiguous]) {
        const r = extractMaxAmount(snapshotItem(id));
        expect(r.amount_extraction_status, id).to.equal('ambiguous_upstream');
        expect(r.max_subsidy_amount_jpy, id).to.equal(null);
        const amounts = r.evidence.text_amounts.map((a) => a.amount_jpy);
        expect(amounts, id).to.include.members([3_000_000, 1_500_000, 600_000, 300_000]);
      }
    });

    it('ambiguous_upstream: subsidy_max_limit 0 while the texts name caps (赤磐 200万/50万; 松山港 per-TEU 50,000)', () => {
      const akaiwa = extractMaxAmount(snapshotItem(IDS.akaiwaTwoCaps));
      expect(akaiwa.amount_extraction_status).to.equal('ambiguous_upstream');
      expect(akaiwa.max_subsidy_amount_jpy).to.equal(null);
      expect(akaiwa.evidence.upstream_max_limit_jpy).to.equal(0);
      expect([...new Set(akaiwa.evidence.text_amounts.map((a) => a.amount_jpy))]).to.deep.equal([
        2_000_000, 500_000,
      ]);
      const port = extractMaxAmount(snapshotItem(IDS.matsuyamaPerTeu));
      expect(port.amount_extraction_status).to.equal('ambiguous_upstream');
      expect(port.evidence.text_amounts).to.deep.equal([
        {
          amount_jpy: 50_000,
          field: 'subsidy_catch_phrase',
          excerpt: '…貨物の増加や新規利用で1TEUあたり最大50,000円を補助します。',
        },
      ]);
    });

    it('unknown: subsidy_max_limit 0 and no cap in any text (天然ガス, 成田, グローバルサウス, 宗像)', () => {
      for (const id of [
        IDS.gasUnknown,
        IDS.naritaNoCapAreaDetail,
        IDS.globalSouthUnknown,
        IDS.munakataUnknown,
      ]) {
        const r = extractMaxAmount(snapshotItem(id));
        expect(r.amount_extraction_status, id).to.equal('unknown');
        expect(r.max_subsidy_amount_jpy, id).to.equal(null);
        expect(r.evidence.reason, id).to.match(/no single cap \(0\) and no text states one/);
      }
    });

    it('unknown when subsidy_max_limit is missing or not a number, never a guess', () => {
      const base = { id: 'x', subsidy_rate: '1/2' };
      expect(extractMaxAmount(base)).to.deep.include({
        amount_extraction_status: 'unknown',
        max_subsidy_amount_jpy: null,
      });
      expect(extractMaxAmount({ ...base, subsidy_max_limit: -5 }).amount_extraction_status).to.equal(
        'unknown',
      );
      expect(extractMaxAmount({ ...base, subsidy_max_limit: 1.5 }).amount_extraction_status).to.equal(
        'unknown',
      );
    });

    it('every snapshot record gets a status, and only ok carries a number', () => {
      const counts = { ok: 0, ambiguous_upstream: 0, unknown: 0 };
      for (const item of SNAPSHOT_ITEMS) {
        const r = extractMaxAmount(item);
        counts[r.amount_extraction_status]++;
        expect(r.max_subsidy_amount_jpy === null, item.id).to.equal(r.amount_extraction_status !== 'ok');
        if (r.amount_extraction_status === 'ok')
          expect(r.max_subsidy_amount_jpy).to.equal(item.subsidy_max_limit);
      }
      expect(counts).to.deep.equal({ ok: 11, ambiguous_upstream: 5, unknown: 5 });
    });

    it('reads amounts in the HTML description after decoding entities and tags', () => {
      const amounts = statedCapAmounts({
        id: 'x',
        detail: '<p>補助上限額&nbsp;：<b>１，０００万円</b></p><p>売上100億円</p>',
      });
      expect(amounts.map((a) => [a.field, a.amount_jpy])).to.deep.equal([['detail', 10_000_000]]);
    });
  });
});
