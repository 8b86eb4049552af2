/**
 * The importer's row splitter against csv-parse (the reference RFC 4180 reader): the same rows
 * whatever the chunk boundaries, quotes doubled, commas and line breaks inside quotes, CRLF or
 * LF, and the line each row starts on; malformed text refused with its line.
 */
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { NtaRowSplitter, type CsvSyntaxError } from '../../../domain/registry/nta-rows';

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
});
