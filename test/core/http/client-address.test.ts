import { expect } from 'chai';
import { parseClientAddress } from '../../../core/http/client-address';

describe('client addresses: one textual form per address, and the IPv6 /64', () => {
  const same: Array<[string, string[]]> = [
    [
      '203.0.113.7',
      [
        '203.0.113.7',
        '::ffff:203.0.113.7',
        '::FFFF:cb00:7107',
        '0:0:0:0:0:ffff:203.0.113.7',
        '203.0.113.7:51234',
        ' 203.0.113.7 ',
      ],
    ],
    [
      '2001:db8::1',
      [
        '2001:db8::1',
        '2001:0DB8:0000:0000:0000:0000:0000:0001',
        '2001:db8:0:0::1',
        '[2001:db8::1]:443',
        '2001:db8::0.0.0.1',
      ],
    ],
    ['fe80::1', ['fe80::1%eth0', 'FE80:0:0:0:0:0:0:1']],
    ['::1', ['::1', '0:0:0:0:0:0:0:1']],
    ['2001:db8:0:1:1:1:1:1', ['2001:db8:0:1:1:1:1:1', '2001:0db8:0000:0001:0001:0001:0001:0001']], // one zero group stays
    ['2001:db8::1:0:0:1', ['2001:db8:0:0:1:0:0:1']], // the first of two equal runs
    ['2001:0:0:1::1', ['2001:0:0:1:0:0:0:1']], // the longest run
  ];
  for (const [canonical, forms] of same) {
    it(`reads ${forms.length} forms of ${canonical} as ${canonical}`, () => {
      for (const f of forms) expect(parseClientAddress(f).address, f).to.equal(canonical);
    });
  }

  it('counts IPv4 and IPv4-mapped IPv6 alone, without a /64', () => {
    expect(parseClientAddress('::ffff:198.51.100.2')).to.deep.equal({
      kind: 'ipv4',
      address: '198.51.100.2',
    });
    expect(parseClientAddress('198.51.100.2')).to.deep.equal({ kind: 'ipv4', address: '198.51.100.2' });
  });

  it('gives every address of one /64 the same prefix, and other /64s another', () => {
    const prefixes = [
      '2001:db8:1:2::1',
      '2001:DB8:1:2:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0002:0000:0000:0000:0002',
      '[2001:db8:1:2:abcd::9]:8080',
    ].map((a) => parseClientAddress(a).prefix64);
    expect(new Set(prefixes)).to.deep.equal(new Set(['2001:db8:1:2::/64']));
    expect(parseClientAddress('2001:db8:1:3::1').prefix64).to.equal('2001:db8:1:3::/64');
    expect(parseClientAddress('::1').prefix64).to.equal('::/64');
  });

  it('keeps text that is no address as it is', () => {
    for (const t of ['unknown', 'not-an-ip', '1.2.3', '2001:db8::g']) {
      expect(parseClientAddress(t)).to.deep.equal({ kind: 'other', address: t });
    }
  });
});
