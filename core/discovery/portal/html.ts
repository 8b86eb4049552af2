/**
 * A tagged template for server-rendered HTML that escapes every interpolated value unless it is
 * already Html (docs/decisions.md, "The portal's pages are rendered by a tagged template of our own").
 * Arrays are joined; null, undefined and false render nothing.
 */

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | HtmlValue[];

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Markup built elsewhere and trusted (e.g. rendered from our own Markdown). */
export function raw(markup: string): Html {
  return new Html(markup);
}
