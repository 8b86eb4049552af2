/**
 * A CSV line split into fields by a regular expression, independently of csv-parse and of the
 * importer: tests read the real NTA files with it to know what the importer must have stored.
 */
export function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  const field = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
  for (let m = field.exec(line); m; m = field.exec(line)) {
    const raw = m[1];
    fields.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
    if (m[2] === '') break;
  }
  return fields;
}
