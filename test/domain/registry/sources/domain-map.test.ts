import { expect } from 'chai';
import { parseHost } from '../../../../domain/registry/sources/domain-map';

describe('host names from domains and URLs', () => {
  it('ignores scheme, www., port, path, query and case', () => {
    for (const input of [
      'hitachi.co.jp',
      'HITACHI.CO.JP',
      'www.hitachi.co.jp',
      'https://www.hitachi.co.jp/products/index.html?x=1#top',
      'http://hitachi.co.jp:8080',
      ' hitachi.co.jp. ',
    ]) {
      const h = parseHost(input);
      expect(h, input).to.include({ ascii: 'hitachi.co.jp', registrable: 'hitachi.co.jp', label: 'hitachi' });
    }
  });

  it('finds the registrable domain under .jp second levels and generic TLDs', () => {
    expect(parseHost('jpn.nec.com')).to.include({ registrable: 'nec.com', label: 'nec' });
    expect(parseHost('www.nta.go.jp')).to.include({ registrable: 'nta.go.jp', label: 'nta' });
    expect(parseHost('global.toyota')).to.include({ registrable: 'global.toyota', label: 'global' });
    expect(parseHost('example.jp')).to.include({ registrable: 'example.jp', label: 'example' });
  });

  it('accepts internationalised domain names in Unicode or punycode', () => {
    const u = parseHost('https://日本語.jp/')!;
    expect(u.ascii).to.equal('xn--wgv71a119e.jp');
    expect(u.unicode).to.equal('日本語.jp');
    expect(u.label).to.equal('日本語');
    expect(parseHost('xn--wgv71a119e.jp')?.unicode).to.equal('日本語.jp');
  });

  it('refuses what is not a domain', () => {
    for (const bad of [
      '',
      'localhost',
      'トヨタ自動車',
      'two words.com',
      '192.168.0.1',
      'http://',
      'a..b',
      '-bad-.com',
    ]) {
      expect(parseHost(bad), bad).to.equal(undefined);
    }
  });
});
