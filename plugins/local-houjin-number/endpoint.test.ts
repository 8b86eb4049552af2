import { expect } from 'chai';
import { snapshotRecords } from '../../domain/registry/sources/snapshot-registry';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { startNtaStandin, type NtaStandin } from '../../test/support/nta-standin';

const PATH = '/preview/v1/local/houjin-number/lookup';

describe('local-houjin-number (local/houjin-number/lookup)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-houjin-number'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('answers a corporation by number: names, kind, address parts, status', async () => {
    const res = await gw.get(`${PATH}?number=7000012050002`);
    expect(res.status).to.equal(200);
    const c = res.body.corporation;
    expect(c).to.include({
      corporate_number: '7000012050002',
      legal_name: '国税庁',
      furigana: 'コクゼイチョウ',
      legal_name_en: 'National Tax Agency',
      status: 'active',
      _source: 'registry_snapshot',
    });
    expect(c.kind).to.deep.equal({ code: '101', name_ja: '国の機関', name_en: 'national government body' });
    expect(c.address).to.include({
      prefecture_code: '13',
      prefecture_name: '東京都',
      city_code: '101',
      city_name: '千代田区',
      post_code: '1000013',
    });
    expect(c.last_change).to.include({
      change_date: '2015-10-05',
      update_date: '2018-04-02',
      correction: true,
    });
    expect(c.t_number_if_registered).to.equal('T7000012050002');
    expect(res.body._provenance.kind).to.equal('snapshot');
    expect(res.body._provenance.sources.length).to.be.greaterThan(0);
  });

  it('answers a closed corporation with its closure date, cause and successor', async () => {
    const res = await gw.get(`${PATH}?number=1430001000814`);
    expect(res.body.corporation.status).to.equal('closed');
    expect(res.body.corporation.closure).to.deep.equal({
      date: '2017-03-02',
      cause: { code: '11', name_ja: '合併による解散等', name_en: 'dissolved by merger etc.' },
      successor_corporate_number: '2430001000813',
    });
  });

  it('answers a renamed corporation with its former name and the change date', async () => {
    const res = await gw.get(`${PATH}?number=5010401067252`);
    expect(res.body.corporation.legal_name).to.equal('ソニーグループ株式会社');
    expect(res.body.corporation.former_names).to.deep.equal([
      { legal_name: 'ソニー株式会社', furigana: null, until: '2021-04-01' },
    ]);
  });

  it('answers 404 JSON for a valid number no corporation holds', async () => {
    const res = await gw.get(`${PATH}?number=7123456789012`);
    expect(res.status).to.equal(404);
    expect(res.body.error).to.equal('corporate_number_not_found');
    expect(res.body.hint).to.be.a('string');
  });

  it('refuses a wrong check digit with 422 check_digit_mismatch and a hint', async () => {
    const res = await gw.get(`${PATH}?number=1180301018772`);
    expect(res.status).to.equal(422);
    expect(res.body.correction_hints[0]).to.include({
      parameter: 'number',
      code: 'check_digit_mismatch',
      received: '1180301018772',
    });
    expect(res.body.correction_hints[0].hint).to.match(/check digit/);
  });

  for (const [number, why] of [
    ['118030101877', '12 digits'],
    ['11803010187711', '14 digits'],
    ['T1180301018771', 'a T'],
    ['１１８０３０１０１８７７１', 'full-width digits'],
    ['1180-301-018771', 'hyphens'],
  ]) {
    it(`refuses ${why} with pattern_mismatch`, async () => {
      const res = await gw.get(`${PATH}?number=${encodeURIComponent(number)}`);
      expect(res.status).to.equal(422);
      expect(res.body.correction_hints[0]).to.include({ parameter: 'number', code: 'pattern_mismatch' });
    });
  }

  it('requires number', async () => {
    const res = await gw.get(PATH);
    expect(res.status).to.equal(422);
    expect(res.body.correction_hints[0]).to.include({ parameter: 'number', code: 'missing_required' });
  });

  it('verbose is a boolean (default false): diagnostics only when true', async () => {
    expect((await gw.get(`${PATH}?number=1180301018771`)).body.diagnostics).to.equal(undefined);
    expect((await gw.get(`${PATH}?number=1180301018771&verbose=false`)).body.diagnostics).to.equal(undefined);
    const on = await gw.get(`${PATH}?number=1180301018771&verbose=true`);
    expect(on.body.diagnostics).to.deep.equal({ check_digit_valid: true, history_records: 0 });
    const bad = await gw.get(`${PATH}?number=1180301018771&verbose=yes`);
    expect(bad.status).to.equal(422);
    expect(bad.body.correction_hints[0]).to.include({ parameter: 'verbose', code: 'not_a_boolean' });
  });

  describe('with an NTA application id (live Web-API, here a local stand-in)', () => {
    let standin: NtaStandin;
    let live: TestGateway;
    before(async () => {
      standin = await startNtaStandin({ appId: 'live-app-id', records: snapshotRecords() });
      live = await startTestGateway({
        plugins: ['local-houjin-number'],
        clock: '2026-11-22T03:00:00Z',
        env: { NTA_HOUJIN_APP_ID: 'live-app-id', NTA_HOUJIN_BASE_URL: standin.houjinBaseUrl },
      });
    });
    after(async () => {
      await live.close();
      await standin.close();
    });

    it('answers from the Web-API, says it is live, with history', async () => {
      const res = await live.get(`${PATH}?number=5010401067252`);
      expect(res.status).to.equal(200);
      expect(res.body.corporation._source).to.equal('registry_live');
      expect(res.body._provenance).to.include({ kind: 'live', as_of: '2026-11-22T03:00:00.000Z' });
      expect(
        res.body.corporation.former_names.map((f: { legal_name: string }) => f.legal_name),
      ).to.deep.equal(['ソニー株式会社']);
      const call = standin.requests.find((r) => r.path === '/4/num')!;
      expect(call.query.get('history')).to.equal('1');
    });

    it('answers 404 when the register has no such number', async () => {
      const res = await live.get(`${PATH}?number=7123456789012`);
      expect(res.status).to.equal(404);
    });

    it('answers 503 source_unavailable, without charging, when the Web-API fails', async () => {
      standin.faults.alwaysStatus = 500;
      try {
        const res = await live.get(`${PATH}?number=1180301018771`);
        expect(res.status).to.equal(503);
        expect(res.body.error).to.equal('source_unavailable');
        expect(res.text).not.to.include('live-app-id');
      } finally {
        delete standin.faults.alwaysStatus;
      }
    });
  });
});
