import { expect } from 'chai';
import { findPersonalData } from '../../../core/feedback/personal-data';
import { FIXTURE_PLUGINS_DIR, startTestGateway, storedText, type TestGateway } from '../../support/gateway';
import { evasionShapes, groupingShapes, ordinaryLookalikes } from './personal-data-shapes';

describe('feedback', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ pluginDirs: [FIXTURE_PLUGINS_DIR] });
  });
  after(() => gw.close());

  it('GET /feedback/schema describes the fields with bounds and enums and the privacy boundary', async () => {
    const res = await gw.get('/feedback/schema');
    expect(res.status).to.equal(200);
    const fields = Object.fromEntries(res.body.accepted_fields.map((f: { name: string }) => [f.name, f]));
    expect(fields.product_id.schema.enum).to.deep.equal(['jp-local-pack', 'jp-data-enrich', 'jp-grants']);
    expect(fields.rating.schema).to.include({ minimum: 1, maximum: 5 });
    expect(fields.message.schema).to.include({ maxLength: 2000 });
    expect(fields.category.schema.enum).to.include('data_quality');
    expect(res.body.privacy_boundary.never_stored).to.include('client network address in clear');
    expect(res.body.privacy_boundary.refused_content.join(' '))
      .to.include('e-mail')
      .and.include('phone')
      .and.include('seed')
      .and.include('My Number')
      .and.include('payment card')
      .and.include('bearer')
      .and.include('password')
      .and.include('postal address')
      .and.include('3-3-3-3 or 6-6')
      .and.include('country code 81')
      .and.include('keycap');
  });

  it('stores anonymous feedback and acknowledges it with an id, keeping no client address', async () => {
    const res = await gw.post('/feedback', {
      product_id: 'jp-local-pack',
      endpoint_id: 'local-fx-echo',
      category: 'data_quality',
      rating: 5,
      message: 'Exactly the 2026 list.',
    });
    expect(res.status).to.equal(201);
    expect(res.body.feedback_id).to.match(/^fb_/);
    const file = await storedText(gw);
    expect(file).to.include(res.body.feedback_id).and.include('Exactly the 2026 list.');
    expect(file).to.not.include('127.0.0.1');
  });

  const refusals: Array<[string, Record<string, unknown>, string, string]> = [
    ['an unknown product', { product_id: 'jp-nope', rating: 3 }, 'product_id', 'not_allowed_value'],
    [
      'an endpoint of another product',
      { product_id: 'jp-grants', endpoint_id: 'local-fx-echo', rating: 3 },
      'endpoint_id',
      'not_allowed_value',
    ],
    ['a rating of 0', { product_id: 'jp-local-pack', rating: 0 }, 'rating', 'out_of_range'],
    ['a rating of 6', { product_id: 'jp-local-pack', rating: 6 }, 'rating', 'out_of_range'],
    ['a rating of 4.5', { product_id: 'jp-local-pack', rating: 4.5 }, 'rating', 'not_an_integer'],
    [
      'a message of 2001 characters',
      { product_id: 'jp-local-pack', message: 'x'.repeat(2001) },
      'message',
      'too_long',
    ],
    ['neither message nor rating', { product_id: 'jp-local-pack' }, 'message', 'missing_required'],
    [
      'an unknown category',
      { product_id: 'jp-local-pack', rating: 2, category: 'rant' },
      'category',
      'not_allowed_value',
    ],
    [
      'an e-mail address',
      { product_id: 'jp-local-pack', message: 'write to taro.yamada@example.co.jp please' },
      'message',
      'personal_data_refused',
    ],
    [
      'a full-width e-mail address',
      { product_id: 'jp-local-pack', message: 'ｔａｒｏ＠ｅｘａｍｐｌｅ．ｃｏｍ' },
      'message',
      'personal_data_refused',
    ],
    [
      'an e-mail split by zero-width spaces',
      { product_id: 'jp-local-pack', message: 'write to taro\u200B@\u200Bexample.com please' },
      'message',
      'personal_data_refused',
    ],
    [
      'a Luhn-valid card number',
      { product_id: 'jp-local-pack', message: 'charged twice on 4242 4242 4242 4242' },
      'message',
      'personal_data_refused',
    ],
    [
      'a Japanese mobile number',
      { product_id: 'jp-local-pack', message: 'call 090-1234-5678' },
      'message',
      'personal_data_refused',
    ],
    [
      'an international phone number',
      { product_id: 'jp-local-pack', message: 'call +81 3 1234 5678' },
      'message',
      'personal_data_refused',
    ],
    [
      'an API key',
      {
        product_id: 'jp-local-pack',
        message: 'my key jpgw_2CUAhEG4BPxvmcjKJVyQSQf8qo1V7mAujV4gJtYQBYWr fails',
      },
      'message',
      'personal_data_refused',
    ],
    [
      'a private key',
      { product_id: 'jp-local-pack', message: `pk ${'ab'.repeat(32)}` },
      'message',
      'personal_data_refused',
    ],
    [
      'a seed phrase',
      {
        product_id: 'jp-local-pack',
        message: 'abandon ability able about above absent absorb abstract absurd abuse access accident',
      },
      'message',
      'personal_data_refused',
    ],
  ];
  for (const [what, body, field, code] of refusals) {
    it(`refuses feedback with ${what} (400 invalid_body naming ${field})`, async () => {
      const res = await gw.post('/feedback', body);
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('invalid_body');
      expect(res.body.invalid_fields).to.include(field);
      expect(res.body.correction_hints.find((h: { parameter: string }) => h.parameter === field)).to.include({
        code,
      });
    });
  }

  it('refuses personal data with the documented 400 invalid_body before anything is stored', async () => {
    // A gateway of its own, so its feedback repository holds only what this test sends.
    const fresh = await startTestGateway({ pluginDirs: [FIXTURE_PLUGINS_DIR], plugins: ['local-fx-echo'] });
    try {
      const repository = fresh.gateway.store.feedback;
      const secrets = [
        ['taro\u200B.yamada@\u200Dexample.com', 'an e-mail address'],
        ['4242-4242-4242-4242', 'a payment card number'],
      ];
      for (const [secret, what] of secrets) {
        const res = await fresh.post('/feedback', {
          product_id: 'jp-local-pack',
          rating: 2,
          message: `Please contact me: ${secret}`,
        });
        expect(res.status, secret).to.equal(400);
        expect(res.body.error).to.equal('invalid_body');
        expect(res.body.invalid_fields).to.deep.equal(['message']);
        expect(res.body.correction_hints[0]).to.include({
          parameter: 'message',
          code: 'personal_data_refused',
          problem: `message contains ${what}`,
        });
        expect(res.body.message).to.not.include(secret);
      }
      expect(await repository.recent(100)).to.deep.equal([]);
      const file = await storedText(fresh);
      expect(file).to.not.include('yamada').and.not.include('4242-4242');

      // The same repository sees a message that is let through.
      const ok = await fresh.post('/feedback', { product_id: 'jp-local-pack', message: 'Fine list.' });
      expect(ok.status).to.equal(201);
      expect((await repository.recent(100)).map((r) => r.message)).to.deep.equal(['Fine list.']);
    } finally {
      await fresh.close();
    }
  });

  it('refuses every shape of personal data of issues 25 and 34 over HTTP and stores none of them', async () => {
    // A gateway of its own, with room for every message: a shape let through is stored, not limited.
    const fresh = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: { FEEDBACK_LIMIT_PER_HOUR: '1000' },
    });
    try {
      const accepted: string[] = [];
      const shapes = [...evasionShapes, ...groupingShapes];
      for (const [what, message, kind] of shapes) {
        const res = await fresh.post('/feedback', { product_id: 'jp-local-pack', rating: 2, message });
        if (res.status !== 400) {
          accepted.push(`${res.status} ${what}: ${message}`);
          continue;
        }
        expect(res.body.error, what).to.equal('invalid_body');
        expect(res.body.correction_hints[0], what).to.include({
          parameter: 'message',
          code: 'personal_data_refused',
        });
        expect(res.body.correction_hints[0].problem, what).to.equal(
          `message contains ${findPersonalData(message)?.what}`,
        );
        expect(findPersonalData(message)?.kind, what).to.equal(kind);
      }
      expect(accepted, `${accepted.length} of ${shapes.length} shapes accepted`).to.deep.equal([]);
      expect(await fresh.gateway.store.feedback.recent(1000)).to.deep.equal([]);

      // Ordinary text written with the same separators and groups is stored.
      for (const message of ordinaryLookalikes) {
        const res = await fresh.post('/feedback', { product_id: 'jp-local-pack', message });
        expect(res.status, `${message}: ${res.text}`).to.equal(201);
      }
      const stored = (await fresh.gateway.store.feedback.recent(1000)).map((r) => r.message);
      expect(stored).to.have.members(ordinaryLookalikes);
    } finally {
      await fresh.close();
    }
  });

  it('lets ordinary text through: dates, amounts, corporate numbers and short numbers', () => {
    for (const text of [
      '2026-11-22 holidays look right',
      'salary 300,000 yen gave 6,320',
      'corporate number 1180301018771 is Toyota',
      'rated 4 of 5',
    ]) {
      expect(findPersonalData(text), text).to.equal(undefined);
    }
  });

  it('limits feedback per client with 429 and Retry-After', async () => {
    const limited = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: { FEEDBACK_LIMIT_PER_HOUR: '2' },
    });
    try {
      for (let i = 0; i < 2; i++)
        expect((await limited.post('/feedback', { product_id: 'jp-local-pack', rating: 4 })).status).to.equal(
          201,
        );
      const res = await limited.post('/feedback', { product_id: 'jp-local-pack', rating: 4 });
      expect(res.status).to.equal(429);
      expect(res.headers.get('retry-after')).to.match(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});
