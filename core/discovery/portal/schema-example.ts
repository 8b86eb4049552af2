/**
 * A placeholder value of a JSON schema's shape, for the "response shape" on an endpoint page:
 * required properties only, the first enum value, a format's typical value, one array item.
 */
type Schema = Record<string, unknown>;

const FORMATS: Record<string, string> = {
  date: '2026-01-01',
  'date-time': '2026-01-01T00:00:00Z',
  uri: 'https://example.org/',
  email: 'name@example.org',
};

export function exampleFromSchema(schema: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 6) return null;
  const s = schema as Schema;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0] ?? null;
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const list = s[key];
    if (Array.isArray(list)) {
      const first = list.find((x) => (x as Schema)?.type !== 'null');
      return exampleFromSchema(first, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : Object.keys(props));
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props))
        if (required.has(k)) out[k] = exampleFromSchema(v, depth + 1);
      return out;
    }
    case 'array':
      return s.items ? [exampleFromSchema(s.items, depth + 1)] : [];
    case 'integer':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 0.5;
    case 'boolean':
      return false;
    case 'string':
      return typeof s.format === 'string' && FORMATS[s.format] ? FORMATS[s.format] : 'string';
    default:
      return s.properties ? exampleFromSchema({ ...s, type: 'object' }, depth) : null;
  }
}
