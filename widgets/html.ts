// A tiny HTML template for widget pages: every interpolated value is escaped unless it is
// already SafeHtml, so nothing from a URL or an upstream can reach the page as markup.

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

type Value = SafeHtml | string | number | boolean | null | undefined | Value[];

function render(v: Value): string {
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  if (v === null || v === undefined || v === false || v === true) return '';
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** JSON for a `<script type="application/json">` block: `<` is escaped so the block cannot be closed early. */
export function jsonScript(id: string, value: unknown): SafeHtml {
  const json = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return new SafeHtml(`<script type="application/json" id="${escapeHtml(id)}">${json}</script>`);
}

/** The foot line every widget ends with: how fresh the figure is, and the attribution link. */
export function footer(fresh: string, origin: string): SafeHtml {
  return html`<div class="foot"><span data-f="fresh">${fresh}</span><a href="${origin}/" target="_blank" rel="noopener">Gold API</a></div>`;
}
