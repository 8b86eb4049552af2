/**
 * The importer's row splitter against csv-parse (the reference RFC 4180 reader): the same rows
 * whatever the chunk boundaries, quotes doubled, commas and line breaks inside quotes, CRLF or
 * LF, and the line each row starts on; malformed text refused with its line.
 */
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import {
  NtaRowSplitter,
  RowTooLongError,
  type CsvSyntaxError,
} from '../../../../domain/registry/files/nta-rows';

const TEXT = [
  '1,1000013050238,01,1,2018-04-02,,"鳥取簡易裁判所",,101,"2-223, Higashimachi, Tottori shi",0',
  '2,1000020313025,"01","a ""quoted"" word","line one\r\nline two",,"","x",,,',
  '',
  '3,"ends, with comma,",,"",""""',
  '4,last',
].join('\r\n');

function split(chunks: string[]) {
  const s = new NtaRowSplitter();
  const rows = chunks.flatMap((c, i) => s.push(c, i === chunks.length - 1));
  return rows;
}

describe('NTA row splitter', () => {
  const reference = parse(TEXT, { relax_column_count: true, skip_empty_lines: true }) as string[][];

  it('reads what csv-parse reads, at every chunk boundary, with CRLF and with LF', () => {
    for (const text of [TEXT, TEXT.replace(/\r\n/g, '\n')]) {
      const expected =
        text === TEXT
          ? reference
          : (parse(text, { relax_column_count: true, skip_empty_lines: true }) as string[][]);
      expect(split([text]).map((r) => r.fields)).to.deep.equal(expected);
      for (let cut = 0; cut <= text.length; cut++) {
        const rows = split([text.slice(0, cut), text.slice(cut)]);
        expect(
          rows.map((r) => r.fields),
          `cut at ${cut}`,
        ).to.deep.equal(expected);
      }
    }
    expect(reference[1][4]).to.equal('line one\r\nline two');
  });

  it('numbers each row by the line it starts on (a quoted line break counts), skipping empty lines', () => {
    expect(split([TEXT]).map((r) => r.line)).to.deep.equal([1, 2, 5, 6]);
    expect(split(['\ufeff"a",b\n'])[0].fields).to.deep.equal(['a', 'b']);
  });

  it('refuses malformed text with its line', () => {
    const err = (t: string) => {
      try {
        split([t]);
      } catch (e) {
        return e as CsvSyntaxError;
      }
      throw new Error(`no error for ${JSON.stringify(t)}`);
    };
    expect(err('a,b\n"c,d\n')).to.include({ line: 2, message: 'a quoted field is not closed' });
    expect(err('a,b\nc,d"e\n')).to.include({ line: 2, message: 'a quote inside an unquoted field' });
    expect(err('a\n\n"b"c\n')).to.include({ line: 3, message: 'text after a closing quote' });
  });

  it('refuses a row past its bound as soon as the text passes it, without waiting for the row to end', () => {
    const s = new NtaRowSplitter(12);
    // 12 code units with the line break: accepted, in one piece or across chunks.
    expect(s.push('"abcdefgh"\r\n').map((r) => r.fields)).to.deep.equal([['abcdefgh']]);
    expect(s.push('12345').concat(s.push('678901\n'))).to.have.length(1);
    // The third row never ends: refused at the chunk that takes it past 12, naming its line.
    expect(s.push('"a long')).to.deep.equal([]);
    let refused: unknown;
    try {
      s.push(' name that goes on');
    } catch (err) {
      refused = err;
    }
    expect(refused).to.be.instanceOf(RowTooLongError);
    expect(refused).to.include({ line: 3, bound: 12 });
    // A whole row past the bound in one chunk, after rows within it.
    expect(() => new NtaRowSplitter(12).push('a,b\nccccccccccccccc\n'))
      .to.throw(RowTooLongError)
      .with.property('line', 2);
  });
});
