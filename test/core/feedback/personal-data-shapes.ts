/**
 * Shapes of personal data that a hostile run (issue 25, finding 5; issue 34 for the groupings)
 * got stored as feedback, and ordinary text written the same way that must still be accepted. Read by the detector tests and
 * by the end-to-end test through POST /feedback.
 *
 * Obviously fake values: the published My Number sample 123456789018, published test card
 * numbers, 0000 phone numbers, example domains.
 */
import type { PersonalDataKind } from '../../../core/feedback/personal-data';

/** Each digit as the keycap emoji (digit, VS16, U+20E3). */
export const keycaps = (text: string): string => text.replace(/\d/g, (d) => `${d}\uFE0F\u20E3`);

export const evasionShapes: Array<[string, string, PersonalDataKind]> = [
  // My Number: other groupings than 4-4-4, other separators.
  ['a My Number grouped 3-3-3-3 with hyphens', 'マイナンバーは123-456-789-018です', 'my_number'],
  ['a My Number grouped 3-3-3-3 with spaces', 'My Number 123 456 789 018', 'my_number'],
  ['a My Number grouped 3-3-3-3 with slashes', '個人番号 123/456/789/018', 'my_number'],
  ['a My Number grouped 3-3-3-3 with underscores', 'my number 123_456_789_018', 'my_number'],
  ['a My Number grouped 6-6 with a hyphen', '個人番号：123456-789018', 'my_number'],
  ['a My Number grouped 6-6 with a space', 'My Number 123456 789018 please', 'my_number'],
  ['a My Number grouped 6-6 with a slash', 'マイナンバー 123456/789018', 'my_number'],
  ['a My Number grouped 6-6 with an underscore', 'マイナンバー 123456_789018', 'my_number'],
  ['a My Number grouped 4-4-4 with slashes', 'My Number: 1234/5678/9018', 'my_number'],
  ['a My Number grouped 4-4-4 with underscores', 'My Number: 1234_5678_9018', 'my_number'],
  ['a My Number grouped 4-4-4 with mixed separators', '個人番号 1234 5678-9018', 'my_number'],
  ['a My Number in keycap digits', `マイナンバー ${keycaps('123456789018')}`, 'my_number'],
  // Payment cards: mixed separators, keycap digits, slashes and underscores.
  ['a card with space, hyphen and underscore', 'card 4111 1111-1111_1111 was charged', 'payment_card'],
  ['a card with hyphen, space and dot', 'カード 5555-5555 5555.4444 です', 'payment_card'],
  ['a card in keycap digits', `card ${keycaps('4111111111111111')}`, 'payment_card'],
  [
    'a card in keycap digits without the emoji selector, grouped',
    'card 4\u20E32\u20E34\u20E32\u20E3 4\u20E32\u20E34\u20E32\u20E3 4\u20E32\u20E34\u20E32\u20E3 4\u20E32\u20E34\u20E32\u20E3',
    'payment_card',
  ],
  ['a card grouped with slashes', 'card 4242/4242/4242/4242', 'payment_card'],
  ['a card grouped with underscores', 'card 4242_4242_4242_4242', 'payment_card'],
  // Japanese phone numbers: slashes, underscores, the country code without '+'.
  ['a mobile number with slashes', 'call 090/0000/0000 tonight', 'phone_number'],
  ['a mobile number with underscores', '携帯 090_0000_0000', 'phone_number'],
  ['a mobile number after 81- without +', 'call 81-90-0000-0000', 'phone_number'],
  ['a mobile number after 81 and spaces', 'tel 81 90 0000 0000', 'phone_number'],
  ['a mobile number after 81 (0)', 'tel 81 (0)90-0000-0000', 'phone_number'],
  ['a landline after 81- without +', 'office 81-3-0000-0000', 'phone_number'],
  ['a mobile number after the 0081 prefix', 'from abroad 0081-90-0000-0000', 'phone_number'],
  ['an international number with slashes', 'call +81/90/0000/0000', 'phone_number'],
  // E-mail addresses: internationalised domains and local parts, quoted local parts.
  ['an e-mail with a Japanese domain', 'mail taro@例え.jp please', 'email_address'],
  ['an e-mail with a Japanese top-level domain', '連絡先 taro@例え.テスト', 'email_address'],
  ['an e-mail with a punycode domain', 'mail taro@xn--r8jz45g.jp please', 'email_address'],
  ['an e-mail with a quoted local part', 'write to "john doe"@example.com', 'email_address'],
  ['an e-mail with a Japanese local part', 'ご連絡は山田@example.jpまで', 'email_address'],
  ['an e-mail with accented local part and domain', 'mail jürgen@bücher.example', 'email_address'],
  ['an e-mail at a bracketed IP address', 'write to taro@[192.0.2.1]', 'email_address'],
  // Keycap digits are read as digits by every number check, the postal code's too.
  ['a postal code in keycap digits', `〒${keycaps('100-0000')} に送ってください`, 'postal_address'],
];

/** Issue 34: cards and Japanese phone numbers in groupings other than the printed ones. */
export const groupingShapes: Array<[string, string, PersonalDataKind]> = [
  ['a card grouped 8-8', 'card 42424242 42424242 please refund', 'payment_card'],
  ['a card grouped 3-3-3-3-4', 'カード 411 111 111 111 1111 です', 'payment_card'],
  ['an Amex number grouped 3-3-3-3-3', 'Amex 378-282-246-310-005 was charged twice', 'payment_card'],
  ['a JCB number grouped 8-8 with a dot', 'JCB 35301113.33300000', 'payment_card'],
  ['a Mastercard number grouped 5-5-6', 'card 55555-55555-554444', 'payment_card'],
  ['a Discover number grouped 6-10', 'Discover 601111 1111111117', 'payment_card'],
  ['a Diners Club number grouped 5-5-4', 'Diners 30569 30902 5904', 'payment_card'],
  ['a mobile number grouped 3-3-5', '携帯 090-000-00000 まで', 'phone_number'],
  ['a mobile number grouped 3-5-3', 'call 080 00000 000 tonight', 'phone_number'],
  ['a mobile number grouped 5-6', 'tel 07000 000000', 'phone_number'],
  ['an IP phone number grouped 3-3-5 with dots', 'IP電話 050.000.00000', 'phone_number'],
  ['a Tokyo number grouped 2-3-5', '電話 03-200-00000 まで', 'phone_number'],
  ['a geographic number grouped 4-3-3', 'office 0422 200 000', 'phone_number'],
  ['a mobile number after 81 grouped 2-3-5', 'call 81-90-000-00000', 'phone_number'],
];

/** Written like the shapes above (slashes, underscores, groups, @) but not personal data. */
export const ordinaryLookalikes = [
  'the holidays of 2026/11/26 and 2026/11/23 are swapped',
  'from 11/23 to 11/26 the list is wrong, and 1/2 of the calls failed',
  'version 1.2.3 and schema v2_10_4 both fail',
  'the price is 1,200円/月 or 12,000円/年',
  'remuneration 300000/350000 yen looks shifted, so does 300000-350000',
  '標準報酬月額 104000_110000 の等級',
  'quotas 4000-4500 5500-6000 per month were applied',
  'rated 100 700 400 500 by four clients',
  'corporate number 7000012050002 returns the wrong name',
  '法人番号 1180301018771 の所在地が古いです',
  'server 192.168.100.104 answered 503',
  'run 2026_11_26_0001 timed out',
  'follow @jpgw_support for news',
  'セミナー@渋谷。参加者は5名でした',
  'lodash@4.17.21 is the version we use',
  'page 81 of the manual, table 90',
  // Issue 34: numbers that a card or phone grouping rule could take for one.
  'amounts 4500 12000 3800 920 yen were billed',
  'ratio 4.242424242424242 looks wrong',
  '法人番号 4000012090001 と 7000012050002 は別の法人です',
  'municipality codes 01100 01202 are swapped',
  'prefectures 01 13 27 40 47 are missing',
  'rates 0.25 0.50 0.75 1.00 apply',
  'navi dial 0570-000-000 and free dial 0800-000-0000 are listed wrong',
  'postcodes 060-0001 060-0002 are swapped in the data',
];
