/**
 * Splits decoded NTA CSV text into rows of fields (RFC 4180: quoted fields with doubled quotes,
 * commas and line breaks inside quotes; CRLF or LF), as chunks arrive. The importer reads every
 * file twice (checked whole first), so parsing is on its critical path: this does what the NTA
 * files need with indexOf over strings, several times faster than csv-parse on bytes. A row is
 * held to a bound (the longest the layout allows): text past it is refused as soon as it arrives,
 * so a line of a gigabyte is never held (nor rescanned chunk after chunk).
 */

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

/** A row longer than the bound, refused before the rest of it is read. */
export class RowTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly bound: number,
  ) {
    super(`a row longer than ${bound} characters`);
    this.name = 'RowTooLongError';
  }
}

export interface SplitRow {
  fields: string[];
  /** The line the row starts on (1-based). */
  line: number;
}

const QUOTE = 34;
const COMMA = 44;
const CR = 13;
const LF = 10;

export class NtaRowSplitter {
  private rest = '';
  private line = 1;
  private first = true;

  /** `maxRowChars`: the longest row (in UTF-16 code units, line break included) accepted. */
  constructor(private readonly maxRowChars = Number.POSITIVE_INFINITY) {}

  /** The complete rows of the text so far; `end` says no more text follows. */
  push(text: string, end = false): SplitRow[] {
    let buf = this.rest + text;
    if (this.first && buf.length > 0) {
      this.first = false;
      if (buf.charCodeAt(0) === 0xfeff) buf = buf.slice(1);
    }
    const rows: SplitRow[] = [];
    let pos = 0;
    while (pos < buf.length) {
      const row = this.row(buf, pos, end);
      if (row === null) break;
      if (row.next - pos > this.maxRowChars) throw new RowTooLongError(this.line, this.maxRowChars);
      if (!(row.fields.length === 1 && row.fields[0] === ''))
        rows.push({ fields: row.fields, line: this.line });
      this.line += row.lineBreaks;
      pos = row.next;
    }
    if (buf.length - pos > this.maxRowChars) throw new RowTooLongError(this.line, this.maxRowChars);
    this.rest = buf.slice(pos);
    return rows;
  }

  /** One row starting at `pos`, or null when the text ends before it does (and more may come). */
  private row(
    buf: string,
    pos: number,
    end: boolean,
  ): { fields: string[]; next: number; lineBreaks: number } | null {
    const fields: string[] = [];
    let lineBreaks = 0;
    let i = pos;
    for (;;) {
      if (buf.charCodeAt(i) === QUOTE) {
        let value = '';
        let from = i + 1;
        for (;;) {
          const q = buf.indexOf('"', from);
          if (q < 0 || (q + 1 === buf.length && !end)) {
            if (!end) return null;
            throw new CsvSyntaxError('a quoted field is not closed', this.line);
          }
          if (buf.charCodeAt(q + 1) === QUOTE) {
            value += buf.slice(from, q + 1);
            from = q + 2;
            continue;
          }
          value += buf.slice(from, q);
          i = q + 1;
          break;
        }
        for (let n = value.indexOf('\n'); n >= 0; n = value.indexOf('\n', n + 1)) lineBreaks++;
        fields.push(value);
      } else {
        let stop = i;
        while (stop < buf.length) {
          const c = buf.charCodeAt(stop);
          if (c === COMMA || c === LF) break;
          if (c === QUOTE)
            throw new CsvSyntaxError('a quote inside an unquoted field', this.line + lineBreaks);
          stop++;
        }
        if (stop === buf.length && !end) return null;
        const value = buf.slice(i, stop);
        fields.push(value.charCodeAt(value.length - 1) === CR ? value.slice(0, -1) : value);
        i = stop;
      }
      const c = buf.charCodeAt(i);
      if (c === COMMA) {
        i++;
        continue;
      }
      if (c === LF) return { fields, next: i + 1, lineBreaks: lineBreaks + 1 };
      if (c === CR && buf.charCodeAt(i + 1) === LF)
        return { fields, next: i + 2, lineBreaks: lineBreaks + 1 };
      // The text ends here (or with a CR whose LF may be in the next chunk).
      if (i >= buf.length || (c === CR && i + 1 === buf.length)) {
        return end ? { fields, next: buf.length, lineBreaks } : null;
      }
      throw new CsvSyntaxError('text after a closing quote', this.line + lineBreaks);
    }
  }
}
