import { expect } from 'chai';
import { corporateNumberValid, luhnValid, myNumberValid } from '../../../core/feedback/check-digits';
import { feedbackViews } from '../../../core/feedback/normalise';
import { findPersonalData, type PersonalDataKind } from '../../../core/feedback/personal-data';
import { evasionShapes, groupingShapes, keycaps, ordinaryLookalikes } from './personal-data-shapes';

// Obviously fake values: example.com, 0000 phone numbers, published test card numbers, the
// published My Number sample 123456789018, made-up places (架空区, 見本町).
const HEX_KEY = '0123456789abcdef'.repeat(4);
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ0ZXN0LXVzZXIifQ.c2lnbmF0dXJlLW5vdC1yZWFs';
const RAW_KEY_BASE64 = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7)).toString('base64');
const SEED = 'abandon ability able about above absent absorb abstract absurd abuse access accident';
const ZWSP = '\u200B';
const ZWNJ = '\u200C';
const ZWJ = '\u200D';
const WJ = '\u2060';
const BOM = '\uFEFF';
const SHY = '\u00AD';

const bypasses: Array<[string, string, PersonalDataKind]> = [
  // Invisible characters inside the value.
  ['zero-width space in an e-mail', `Please reply to taro${ZWSP}.yamada@example${ZWNJ}.com`, 'email_address'],
  ['word joiner and BOM in an e-mail', `ご連絡はhanako${WJ}@${BOM}example.co.jpまで`, 'email_address'],
  ['soft hyphens in an e-mail', `mail me: ta${SHY}ro@exam${SHY}ple.com`, 'email_address'],
  ['zero-width joiners in a phone number', `Call me at 090${ZWSP}-0000${ZWJ}-0000 about it`, 'phone_number'],
  [
    'zero-width chars between full-width digits',
    `電話は０９０${ZWSP}００００${ZWNJ}００００です`,
    'phone_number',
  ],
  [
    'a zero-width space in an API key',
    `my key jpgw_2CUAhEG4${ZWSP}BPxvmcjKJVyQSQf8qo1V7mAujV4gJtYQBYWr stopped working`,
    'api_key',
  ],
  [
    'a zero-width space in a private key',
    `pk ${HEX_KEY.slice(0, 30)}${ZWSP}${HEX_KEY.slice(30)}`,
    'private_key',
  ],
  ['Mongolian vowel separators in a card number', 'card 4242\u180E4242\u180E4242\u180E4242', 'payment_card'],
  ['a zero-width-split My Number', `個人番号は1234${ZWSP}5678${ZWSP}9018です`, 'my_number'],
  ['a zero-width-split password label', `pass${ZWSP}word = abc12345`, 'password'],
  // Full-width digits and dash look-alikes.
  ['full-width digits with the long-vowel mark', '電話番号は０９０ー００００ー００００です', 'phone_number'],
  ['full-width digits with full-width hyphens', '携帯：０８０－００００－１１１１', 'phone_number'],
  ['full-width digits with U+2010 hyphens', '０３‐００００‐００００に折り返しください', 'phone_number'],
  ['em dashes', 'call ０８０—００００—１１１１ tonight', 'phone_number'],
  ['horizontal bars', '０９０―００００―００００', 'phone_number'],
  ['minus signs', 'tel 090−0000−0000', 'phone_number'],
  ['half-width long-vowel marks', '090ｰ0000ｰ0000まで', 'phone_number'],
  ['a full-width e-mail', 'ｍａｉｌ：ｔａｒｏ＠ｅｘａｍｐｌｅ．ｃｏｍ', 'email_address'],
  // Dots and other separators.
  ['a dotted mobile number', 'My number is 090.0000.0000, call after 6pm', 'phone_number'],
  ['a dotted landline number', '03.0000.0000 までお電話ください', 'phone_number'],
  ['katakana middle dots', '090・0000・0000に電話を', 'phone_number'],
  ['parentheses around the area code', 'office (03) 0000-0000', 'phone_number'],
  ['digits spaced one by one', 'call 0 9 0 0 0 0 0 1 1 1 1 please', 'phone_number'],
  ['a dotted international number', 'reach me on +81.90.0000.0000', 'phone_number'],
  ['a Japanese phone number followed by a long extension', 'TEL090-0000-0000-9999', 'phone_number'],
  // Kanji numerals.
  ['a mobile number in kanji numerals', '〇九〇-〇〇〇〇-〇〇〇〇に電話してください', 'phone_number'],
  ['a landline in kanji with long-vowel marks', '電話：〇三ー〇〇〇〇ー一一一一', 'phone_number'],
  ['a My Number in kanji numerals', '個人番号 一二三四 五六七八 九〇一八 を登録しました', 'my_number'],
  ['a postal code in kanji numerals', '〒一〇〇ー〇〇〇〇 に送ってください', 'postal_address'],
  // Private keys split or encoded.
  ['a private key split by spaces', `wallet key ${HEX_KEY.match(/.{8}/g)?.join(' ')} lost`, 'private_key'],
  [
    'a private key split over lines',
    `key:\n${HEX_KEY.slice(0, 32)}\n${HEX_KEY.slice(32)}\nthanks`,
    'private_key',
  ],
  [
    'a hex private key in base64',
    `encoded ${Buffer.from(HEX_KEY).toString('base64')} for safety`,
    'private_key',
  ],
  ['a raw 32-byte key in base64', `ed25519 seed ${RAW_KEY_BASE64} please rotate`, 'private_key'],
  [
    'a PEM private key',
    '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----',
    'private_key',
  ],
  ['a transaction hash (looks like a key: refused, as before)', `tx 0x${HEX_KEY} failed`, 'private_key'],
  [
    'a numbered seed phrase',
    SEED.split(' ')
      .map((w, i) => `${i + 1}. ${w}`)
      .join(' '),
    'seed_phrase',
  ],
  // My Number (12 digits, check digit).
  ['a My Number in Japanese', 'マイナンバーは123456789018です', 'my_number'],
  ['a My Number grouped 4-4-4', 'My Number: 1234 5678 9018', 'my_number'],
  ['a full-width My Number with hyphens', '個人番号：１１１１－１１１１－１１１８', 'my_number'],
  // Payment cards (Luhn).
  ['a card with expiry and CVV', 'card 4242 4242 4242 4242 exp 12/30 cvv 123', 'payment_card'],
  ['a card with dashes in Japanese', 'カード番号 5555-5555-5555-4444 セキュリティコード 123', 'payment_card'],
  ['an Amex number 4-6-5', 'Amex 3782 822463 10005 was charged twice', 'payment_card'],
  ['a full-width JCB number', 'ＪＣＢ ３５３０ １１１３ ３３３０ ００００ で払いました', 'payment_card'],
  ['a card with the CVV appended', '4111 1111 1111 1111 123', 'payment_card'],
  ['a card in one group', 'charged 4242424242424242 twice', 'payment_card'],
  ['a 2-series Mastercard test number', 'Mastercard 2223 0031 2200 3222 declined', 'payment_card'],
  ['a dotted card', 'カード4242.4242.4242.4242です', 'payment_card'],
  // Bearer tokens.
  ['an Authorization header with a JWT', `Authorization: Bearer ${JWT}`, 'bearer_token'],
  ['a bare JWT in Japanese', `トークン ${JWT} を送ると401になります`, 'bearer_token'],
  ['an opaque bearer token', 'header was Bearer 3f9a0c2e7b1d4f6a8c0e2b4d6f8a1c3e', 'bearer_token'],
  ['a JWT labelled token:', `token: ${JWT}`, 'bearer_token'],
  // Passwords.
  ['a password line', 'login failed with\npassword: Sup3rSecret!', 'password'],
  ['a Japanese password line', 'パスワード：hunter2 でログインできません', 'password'],
  ['a passwd= pair', 'tried passwd=fake-pass-123', 'password'],
  // Postal addresses.
  [
    'a postal code and a block address with a name',
    '〒100-0000 東京都架空区見本町1丁目2番3号 山田太郎',
    'postal_address',
  ],
  ['a prefecture, city and dash-form block numbers', '住所は大阪府見本市例町3-4-5です', 'postal_address'],
  ['a full-width postal code after 郵便番号', '郵便番号１２３ー４５６７へ', 'postal_address'],
  ['a Hokkaido-style block address', '札幌市見本区北9条西9丁目9-9に住んでいます', 'postal_address'],
  ['a prefecture and two dash-joined numbers', '東京都架空区見本1-1まで', 'postal_address'],
  ['a romaji street address', 'I live at 1-2-3 Mihon, Kaku-ku, Tokyo', 'postal_address'],
  // Personal data in base64.
  [
    'an e-mail in base64',
    `contact (base64): ${Buffer.from('taro.yamada@example.com').toString('base64')}`,
    'email_address',
  ],
  ['a phone number in base64', `連絡先 ${Buffer.from('090-0000-0000').toString('base64')}`, 'phone_number'],
];

const ordinary = [
  'corporate number 7000012050002 returns the wrong name',
  '法人番号7000012050002の所在地が古いです',
  'corporate number 1180301018771 is Toyota',
  'invoice T7000012050002 is registered since 2023-10-01',
  'インボイス番号 T7000012050002 の登録日が違います',
  '2026-11-26 holidays look right',
  '2026/11/23と2026/11/24の祝日が逆です',
  'holidays 2026-01-01 2026-01-12 2026-02-11 2026-02-23 2026-03-20 are fine',
  '2026年11月23日は勤労感謝の日です',
  'The total was 1,234,567円 and the tax 123,456円',
  'salary 300000 yen gave 6,320 premium',
  '標準報酬月額 88000 98000 104000 110000 118000 126000 の等級が一つずれています',
  'standard monthly remuneration 200000 220000 240000 260000 280000 300000 look shifted',
  '/v1/local-fx-echo?year=2026&prefecture=13 returns 404',
  'years 2024 2025 2026 2027 are all missing',
  'request id 550e8400-e29b-41d4-a716-446655440000 failed',
  'ids 123e4567-e89b-12d3-a456-426614174000 123e4567-e89b-12d3-a456-426614174001 both timed out',
  'paid from 0x52908400098527886E0F7030069857D2E4169EE7 twice',
  'we called the endpoint 1200 times on 2026-01-05',
  'took 1500 ms; rated 4 of 5',
  'price 0.005 USDC per call, 1000000 micro-USDC in total',
  '千代田区の祝日が欠けています',
  '港区六本木6丁目の地区コードが違います',
  '第3号被保険者の保険料が3番目の表で違います',
  'the head office is listed in 東京都千代田区',
  'the docs explain bearer authentication for the broker',
  'the password reset page is missing',
  'version 1.2.3 of the schema, page 12',
  'source https://example.com/information/20260205090034 has the new rate',
  '苫小牧市 01213 (012131) is the local government code',
  'the support line 0120-000-000 in the dataset is outdated',
];

describe('feedback personal-data filter', () => {
  for (const [what, text, kind] of bypasses) {
    it(`finds ${kind} in ${what}`, () => {
      expect(findPersonalData(text)?.kind, text).to.equal(kind);
    });
  }

  for (const [what, text, kind] of evasionShapes) {
    it(`finds ${kind} in ${what} (issue 25)`, () => {
      expect(findPersonalData(text)?.kind, text).to.equal(kind);
    });
  }

  for (const [what, text, kind] of groupingShapes) {
    it(`finds ${kind} in ${what} (issue 34)`, () => {
      expect(findPersonalData(text)?.kind, text).to.equal(kind);
    });
  }

  it('lets ordinary feedback through: dates, amounts, corporate and invoice numbers, ids, paths', () => {
    for (const text of ordinary) expect(findPersonalData(text), text).to.equal(undefined);
  });

  it('lets ordinary text written with slashes, underscores, groups or @ through', () => {
    for (const text of ordinaryLookalikes) expect(findPersonalData(text), text).to.equal(undefined);
  });

  it('gives every refusal a plain description', () => {
    for (const [, text] of bypasses) expect(findPersonalData(text)?.what).to.match(/^an? \S/);
  });

  it('normalises invisible characters, full-width and kanji digits and dashes before checking', () => {
    const v = feedbackViews(`ｔａｒｏ${ZWSP}＠ｅｘ${SHY}ａｍｐｌｅ．ｃｏｍ ０９０ー〇〇〇〇―１２３４ ٠٩٠`);
    expect(v.text).to.equal('taro@example.com 090ー〇〇〇〇―1234 ٠٩٠');
    expect(v.digits).to.equal('taro@example.com 090-0000-1234 090');
  });

  it('reads keycap digits as digits and slashes or underscores between digits as hyphens', () => {
    const v = feedbackViews(`${keycaps('090')} 1234/5678_9018 a_1 2026/11/26 x/y`);
    expect(v.digits).to.equal('090 1234-5678-9018 a_1 ~ x/y');
  });

  it('masks dates, request ids and 0x values in the digits view', () => {
    const v = feedbackViews('2026-01-05 550e8400-e29b-41d4-a716-446655440000 0xabc123 ok');
    expect(v.digits).to.equal('~ ~ ~ ok');
  });

  it('checks the published check-digit examples', () => {
    expect(myNumberValid('123456789018')).to.equal(true);
    expect(myNumberValid('023456789013')).to.equal(true);
    expect(myNumberValid('123456789012')).to.equal(false);
    expect(luhnValid('4242424242424242')).to.equal(true);
    expect(luhnValid('4242424242424241')).to.equal(false);
    expect(corporateNumberValid('7000012050002')).to.equal(true);
    expect(corporateNumberValid('8000012050002')).to.equal(false);
  });

  it('refuses 12 digits only when the My Number check digit holds', () => {
    expect(findPersonalData('マイナンバーは123456789018です')?.kind).to.equal('my_number');
    expect(findPersonalData('マイナンバーは123456789012です')).to.equal(undefined);
  });

  it('refuses a card number only when the Luhn sum holds', () => {
    expect(findPersonalData('card 4242 4242 4242 4242')?.kind).to.equal('payment_card');
    expect(findPersonalData('card 4242 4242 4242 4241')).to.equal(undefined);
    expect(findPersonalData('card 4111 1111-1111_1111')?.kind).to.equal('payment_card');
    expect(findPersonalData('card 4111 1111-1111_1112')).to.equal(undefined);
    expect(findPersonalData(`card ${keycaps('4111111111111112')}`)).to.equal(undefined);
  });

  it('refuses 3-3-3-3 and 6-6 groups only when the My Number check digit holds', () => {
    expect(findPersonalData('123-456-789-018')?.kind).to.equal('my_number');
    expect(findPersonalData('123-456-789-012')).to.equal(undefined);
    expect(findPersonalData('123456/789018')?.kind).to.equal('my_number');
    expect(findPersonalData('123456/789012')).to.equal(undefined);
  });

  it('reads 81 as the country code only before a Japanese number', () => {
    expect(findPersonalData('81-90-0000-0000')?.kind).to.equal('phone_number');
    // 81 then 8 digits: no national number is that short.
    expect(findPersonalData('81-9-000-0000')).to.equal(undefined);
    // 81 then the digits of no Japanese number: 012 numbers are geographic, 10 digits with the 0.
    expect(findPersonalData('81-12-3456-7890')).to.equal(undefined);
  });

  it('reads phone numbers by the numbering plan: lengths by prefix, service numbers pass (issue 34)', () => {
    // 0X0 numbers have 11 digits, geographic ones 10, in any grouping that starts with the prefix.
    expect(findPersonalData('090-000-00000')?.kind).to.equal('phone_number');
    expect(findPersonalData('090-000-0000')).to.equal(undefined);
    expect(findPersonalData('03-200-00000')?.kind).to.equal('phone_number');
    expect(findPersonalData('03-200-000000')).to.equal(undefined);
    // A geographic number's local exchange never starts with 0 or 1: two codes are not a number.
    expect(findPersonalData('0466 200 000')?.kind).to.equal('phone_number');
    expect(findPersonalData('0466 000 000')).to.equal(undefined);
    expect(findPersonalData('0466 100 000')).to.equal(undefined);
    // Free dial, navi dial and the other numbers a business publishes are not a person's.
    for (const n of ['0120-000-000', '0120 000 000', '0800-000-0000', '0570-000-000', '0990-000-000'])
      expect(findPersonalData(`support ${n}`), n).to.equal(undefined);
  });

  it('refuses a card number in any regular grouping only with an issuer prefix and length (issue 34)', () => {
    expect(findPersonalData('42424242 42424242')?.kind).to.equal('payment_card');
    expect(findPersonalData('42424242 42424241')).to.equal(undefined); // Luhn
    // American Express numbers have 15 digits: a Luhn-valid 16-digit number starting 37 is none.
    expect(findPersonalData('378 282 246 310 005')?.kind).to.equal('payment_card');
    expect(findPersonalData('3782 8224 6310 0052')).to.equal(undefined);
    // Outside the printed layouts, groups of irregular sizes or mixed separators are a list (both
    // Luhn-valid here: 4500120003800920, 300350400450500550).
    expect(findPersonalData('4500 12000 3800 920')).to.equal(undefined);
    expect(findPersonalData('ranges 300-350 400-450 500-550')).to.equal(undefined);
    expect(findPersonalData('42424242-42424242')?.kind).to.equal('payment_card');
    // A decimal number is one '.' between two groups of unequal sizes.
    expect(findPersonalData('4.242424242424242')).to.equal(undefined);
    expect(findPersonalData('4242.424242424242')).to.equal(undefined);
    // A number that passes the corporate-number check digit too is a corporate number (public).
    expect(luhnValid('4999758888985') && corporateNumberValid('4999758888985')).to.equal(true);
    expect(findPersonalData('法人番号 4999758888985')).to.equal(undefined);
  });
});
