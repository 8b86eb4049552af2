/** Validates JSON bodies against schemas of a served openapi.json (JSON Schema 2020-12, via Ajv). */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export class OpenApiValidator {
  private readonly ajv: Ajv2020;

  constructor(private readonly doc: object) {
    // strict: false because OpenAPI documents carry keywords JSON Schema does not know (x-...).
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...doc, $id: 'openapi.json' });
  }

  /** Errors of `value` against the schema at a JSON pointer of the document ([] when valid). */
  errors(pointer: string, value: unknown): string[] {
    const validate = this.ajv.compile({ $ref: `openapi.json#${pointer}` });
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
  }

  /** Errors against the JSON schema of an operation's response (JSON, or a problem's JSON). */
  responseErrors(path: string, method: string, status: string, value: unknown): string[] {
    const escaped = path.replace(/~/g, '~0').replace(/\//g, '~1');
    const paths = (
      this.doc as {
        paths: Record<string, Record<string, { responses: Record<string, { content?: object }> }>>;
      }
    ).paths;
    const content = paths[path]?.[method]?.responses[status]?.content ?? {};
    const type = 'application/problem+json' in content ? 'application~1problem+json' : 'application~1json';
    return this.errors(`/paths/${escaped}/${method}/responses/${status}/content/${type}/schema`, value);
  }
}
