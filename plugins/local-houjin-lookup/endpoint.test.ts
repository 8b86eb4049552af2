import { expect } from 'chai';
import { snapshotRecords } from '../../domain/registry/sources/snapshot-registry';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { withQuery } from '../../test/support/query-cases';
import { startNtaStandin, type NtaStandin } from '../../test/support/nta-standin';

const PATH = '/preview/v1/local/houjin-lookup/by-name';
const q = (params: Record<string, string | number>) => withQuery(PATH, params);

describe('local-houjin-lookup (local/houjin-lookup/by-name)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-houjin-lookup'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('finds a corporation by its registered name, whatever the legal form and width (exact, high)', async () => {
    for (const name of [
      '鹿島建設',
      '鹿島建設株式会社',
      '㈱鹿島建設',
      '鹿島建設（株）',
      '鹿島建設 カブシキガイシャ',
    ]) {
      const res = await gw.get(q({ name }));
      expect(res.status, name).to.equal(200);
      expect(res.body.candidates[0], name).to.include({
        corporate_number_hint: '8010401006744',
        legal_name: '鹿島建設株式会社',
        match_mode: 'exact',
        match_reliability_label: 'high',
        _source: 'registry_snapshot',
      });
      expect(res.body.candidates[0].match_reliability).to.equal(0.97);
    }
  });

  it('tags each candidate with the mode that found it: alias, reading, prefix, partial, former name', async () => {
    const alias = await gw.get(q({ name: 'NEC' }));
    expect(alias.body.candidates[0]).to.include({
      legal_name: '日本電気株式会社',
      match_mode: 'alias',
      matched_text: 'NEC',
    });
    const reading = await gw.get(q({ name: 'ひたちせいさくしょ' }));
    expect(reading.body.candidates[0]).to.include({
      corporate_number_hint: '7010001008844',
      match_mode: 'reading',
      matched_on: 'furigana',
    });
    const english = await gw.get(q({ name: 'Mitsubishi Electric Corp.' }));
    expect(english.body.candidates[0]).to.include({
      corporate_number_hint: '4010001008772',
      match_mode: 'reading',
      matched_on: 'legal_name_en',
    });
    const prefix = await gw.get(q({ name: '三菱' }));
    expect(prefix.body.candidates.map((c: { match_mode: string }) => c.match_mode)).to.deep.equal([
      'prefix',
      'prefix',
    ]);
    const partial = await gw.get(q({ name: '建設' }));
    expect(partial.body.candidates.length).to.equal(3);
    for (const c of partial.body.candidates)
      expect(c).to.include({ match_mode: 'partial', match_reliability_label: 'low' });
    const former = await gw.get(q({ name: '国際石油開発帝石' }));
    expect(former.body.candidates[0]).to.include({
      legal_name: '株式会社ＩＮＰＥＸ',
      matched_on: 'former_names',
      matched_text: '国際石油開発帝石株式会社',
    });
  });

  it('ranks the registered name above a brand alias and says an ambiguous alias is ambiguous', async () => {
    const res = await gw.get(q({ name: 'ソニー株式会社' }));
    expect(res.body.candidates[0]).to.include({
      corporate_number_hint: '7010401045660',
      match_mode: 'exact',
      match_reliability: 0.97,
    });
    // ソニーグループ was registered as ソニー株式会社 until 2021: its former name typed exactly (issue 36).
    expect(res.body.candidates[1]).to.include({
      corporate_number_hint: '5010401067252',
      match_mode: 'exact',
      matched_on: 'former_names',
    });
    const sony = await gw.get(q({ name: 'SONY' }));
    const top2 = sony.body.candidates.slice(0, 2);
    expect(top2.map((c: { corporate_number_hint: string }) => c.corporate_number_hint)).to.have.members([
      '5010401067252',
      '7010401045660',
    ]);
    for (const c of top2) expect(c).to.include({ match_mode: 'alias', match_reliability_label: 'medium' });
  });

  it('filters by prefecture written as a code, a Japanese or a romanised name', async () => {
    for (const pref of ['27', '大阪府', '大阪', 'Osaka', 'osaka-fu']) {
      const res = await gw.get(q({ name: 'ハウス', pref }));
      expect(res.status, pref).to.equal(200);
      expect(res.body.query.pref).to.deep.equal({ code: '27', name_ja: '大阪府', name_en: 'Osaka' });
      for (const c of res.body.candidates) expect(c.address.prefecture_code, pref).to.equal('27');
      expect(res.body.candidates.map((c: { legal_name: string }) => c.legal_name)).to.include.members([
        '大和ハウス工業株式会社',
        '積水ハウス株式会社',
      ]);
    }
  });

  it('limit: 0 and 51 refused, 1 and 50 served, default 10', async () => {
    for (const [limit, status] of [
      [0, 422],
      [1, 200],
      [50, 200],
      [51, 422],
    ] as const) {
      const res = await gw.get(q({ name: '建設', limit }));
      expect(res.status, String(limit)).to.equal(status);
      if (status === 422) {
        expect(res.body.correction_hints[0]).to.include({
          parameter: 'limit',
          code: 'out_of_range',
          accepted: 'an integer from 1 to 50',
        });
      } else {
        expect(res.body.candidates.length).to.be.at.most(limit);
      }
    }
    expect((await gw.get(q({ name: '建設', limit: 1 }))).body.candidates).to.have.length(1);
    expect((await gw.get(q({ name: '株' }))).body.query.limit).to.equal(10);
    expect((await gw.get(q({ name: '建設', limit: 'abc' }))).body.correction_hints[0].code).to.equal(
      'not_an_integer',
    );
  });

  it('name is required and non-empty; a name that is only a legal form is refused', async () => {
    expect((await gw.get(PATH)).body.correction_hints[0]).to.include({
      parameter: 'name',
      code: 'missing_required',
    });
    expect((await gw.get(q({ name: '' }))).body.correction_hints[0]).to.include({
      parameter: 'name',
      code: 'empty_value',
    });
    const only = await gw.get(q({ name: '株式会社' }));
    expect(only.status).to.equal(422);
    expect(only.body.correction_hints[0]).to.include({ parameter: 'name', code: 'legal_form_only' });
    const one = await gw.get(q({ name: '鹿' }));
    expect(one.status).to.equal(200);
  });

  it('pref: empty or unknown refused, each with its code', async () => {
    const empty = await gw.get(q({ name: '建設', pref: '' }));
    expect(empty.body.correction_hints[0]).to.include({ parameter: 'pref', code: 'empty_value' });
    for (const bad of ['48', '00', 'Atlantis', '東京市']) {
      const res = await gw.get(q({ name: '建設', pref: bad }));
      expect(res.status, bad).to.equal(422);
      expect(res.body.correction_hints[0], bad).to.include({ parameter: 'pref', code: 'unknown_prefecture' });
    }
  });

  it('verbose is a string flag: diagnostics with any value but empty/0/false/no/off', async () => {
    for (const v of ['1', 'yes', 'anything']) {
      const res = await gw.get(q({ name: '日立', verbose: v }));
      expect(res.body.diagnostics, v).to.have.keys(['normalized', 'found_by_mode', 'reliability_scale']);
      expect(res.body.diagnostics.normalized, v).to.have.keys([
        'search_key',
        'name_without_legal_form',
        'legal_form',
        'widths',
      ]);
    }
    for (const v of ['', '0', 'false', 'no', 'off']) {
      const res = await gw.get(q({ name: '日立', verbose: v }));
      expect(res.status).to.equal(200);
      expect(res.body.diagnostics, v).to.equal(undefined);
    }
  });

  it('says the data is a dated snapshot and names the sources of the candidates', async () => {
    const res = await gw.get(q({ name: 'トヨタ自動車' }));
    expect(res.body._provenance).to.include({ kind: 'snapshot', as_of: '2026-11-22' });
    expect(res.body._attribution).to.match(/National Tax Agency/);
    expect(res.body._gateway).to.include({ endpoint_id: 'local-houjin-lookup', surface: 'preview' });
  });

  describe('with an NTA application id (live, here a local stand-in)', () => {
    let standin: NtaStandin;
    let live: TestGateway;
    before(async () => {
      standin = await startNtaStandin({ appId: 'live-id', records: snapshotRecords() });
      live = await startTestGateway({
        plugins: ['local-houjin-lookup'],
        clock: '2026-11-22T03:00:00Z',
        env: { NTA_HOUJIN_APP_ID: 'live-id', NTA_HOUJIN_BASE_URL: standin.houjinBaseUrl },
      });
    });
    after(async () => {
      await live.close();
      await standin.close();
    });

    it('asks the Web-API for a partial match of the name and ranks the page with the same modes', async () => {
      const res = await live.get(q({ name: '株式会社大林組', pref: 'Tokyo' }));
      expect(res.body._provenance.kind).to.equal('live');
      expect(res.body.candidates[0]).to.include({
        corporate_number_hint: '7010401088742',
        match_mode: 'exact',
        _source: 'registry_live',
      });
      const call = standin.requests.find((r) => r.path === '/4/name')!;
      expect(call.query.get('name')).to.equal('大林組');
      expect([call.query.get('mode'), call.query.get('address'), call.query.get('close')]).to.deep.equal([
        '2',
        '13',
        '1',
      ]);
    });

    it('answers 503 source_unavailable when the Web-API cannot be reached', async () => {
      standin.faults.alwaysStatus = 503;
      try {
        const res = await live.get(q({ name: '大林組' }));
        expect(res.status).to.equal(503);
        expect(res.body.error).to.equal('source_unavailable');
      } finally {
        delete standin.faults.alwaysStatus;
      }
    });
  });
});
