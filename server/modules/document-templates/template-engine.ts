/**
 * The firm's own document templates (Contazen's `Documents` templates): HTML with placeholders.
 * `{{invoice.number}}` is replaced by the value, HTML-escaped; `{{#items}}…{{/items}}` repeats its
 * part once per line, where `{{name}}`, `{{quantity}}`… are the line's. Nothing else is a template
 * construct: no raw output, no logic, no includes. Every placeholder is checked when the template is
 * saved, so a typo is a 422 naming it, never an empty spot on a printed invoice.
 */

export const ROOT_FIELDS = [
  'invoice.type', 'invoice.number', 'invoice.issue_date', 'invoice.due_date', 'invoice.currency', 'invoice.net', 'invoice.vat',
  'invoice.total', 'invoice.amount_due', 'invoice.observations',
  'seller.name', 'seller.cui', 'seller.reg_com', 'seller.address', 'seller.iban', 'seller.bank', 'seller.email', 'seller.phone',
  'client.name', 'client.cui', 'client.reg_com', 'client.address',
] as const;
export const ITEM_FIELDS = ['position', 'name', 'quantity', 'unit', 'price', 'vat_rate', 'net', 'vat', 'total'] as const;
export const SECTIONS = ['items'] as const;

export type RootField = (typeof ROOT_FIELDS)[number];
export type ItemField = (typeof ITEM_FIELDS)[number];
export interface TemplateData {
  root: Record<RootField, string>;
  items: Array<Record<ItemField, string>>;
}

type Node = { kind: 'text'; text: string } | { kind: 'field'; name: string } | { kind: 'section'; name: string; body: Node[] };

const TAG = /\{\{\s*([#/]?)\s*([A-Za-z_][\w.]*)\s*\}\}/g;

/** The template's nodes, or the first problem as `English|Română`. */
export function parseTemplate(source: string): { nodes: Node[] } | { problem: string } {
  const root: Node[] = [];
  const stack: Array<{ name: string; body: Node[] }> = [];
  let current = root;
  let last = 0;
  for (const m of source.matchAll(TAG)) {
    if (m.index > last) current.push({ kind: 'text', text: source.slice(last, m.index) });
    last = m.index + m[0].length;
    const [, sigil, name] = m as unknown as [string, string, string];
    if (sigil === '#') {
      if (!(SECTIONS as readonly string[]).includes(name)) return { problem: `Unknown section {{#${name}}}: only {{#items}}|Secțiune necunoscută {{#${name}}}: există doar {{#items}}` };
      if (stack.length) return { problem: 'Sections cannot be nested|Secțiunile nu pot fi imbricate' };
      const section = { kind: 'section' as const, name, body: [] as Node[] };
      current.push(section);
      stack.push(section);
      current = section.body;
    } else if (sigil === '/') {
      const open = stack.pop();
      if (!open || open.name !== name) return { problem: `{{/${name}}} closes no open section|{{/${name}}} nu închide nicio secțiune deschisă` };
      current = root;
    } else {
      const known = stack.length ? (ITEM_FIELDS as readonly string[]).includes(name) || (ROOT_FIELDS as readonly string[]).includes(name) : (ROOT_FIELDS as readonly string[]).includes(name);
      if (!known) return { problem: `Unknown placeholder {{${name}}}|Câmp necunoscut {{${name}}}` };
      current.push({ kind: 'field', name });
    }
  }
  if (stack.length) return { problem: `{{#${stack[0]!.name}}} is not closed|{{#${stack[0]!.name}}} nu este închisă` };
  if (last < source.length) current.push({ kind: 'text', text: source.slice(last) });
  if (/\{\{|\}\}/.test(root.filter((n) => n.kind === 'text').map((n) => (n as { text: string }).text).join(''))) {
    return { problem: 'A {{ or }} that is not a placeholder|Un {{ sau }} care nu este un câmp' };
  }
  return { nodes: root };
}

/**
 * A template is printed by the service's Chromium (PDF preview): it must be self-contained. No script
 * (JavaScript is off anyway), and nothing fetched from elsewhere (an image URL would make the service
 * fetch it, from inside its network): images as `data:` URLs.
 */
export function unsafeContent(source: string): string | null {
  if (/<\s*(script|iframe|frame|object|embed|link|base|form|meta)\b/i.test(source)) {
    return 'No <script>, <iframe>, <object>, <embed>, <link>, <base>, <form> or <meta>: a template is plain HTML and CSS|Fără <script>, <iframe>, <object>, <embed>, <link>, <base>, <form> sau <meta>: un șablon este doar HTML și CSS';
  }
  if (/\son\w+\s*=/i.test(source)) return 'No event attributes (onload=…)|Fără atribute de eveniment (onload=…)';
  const urls = [...source.matchAll(/\b(?:src|href|srcset|poster|action|background|xlink:href)\s*=\s*(["']?)([^"'\s>]*)/gi)].map((m) => m[2] ?? '');
  urls.push(...[...source.matchAll(/url\(\s*(["']?)([^"')]*)/gi)].map((m) => m[2] ?? ''));
  if (/@import/i.test(source)) return 'No @import: the CSS goes inside the template|Fără @import: CSS-ul se scrie în șablon';
  const outside = urls.find((u) => u !== '' && !u.startsWith('data:') && !u.startsWith('#'));
  if (outside !== undefined) return `Nothing from elsewhere (${outside.slice(0, 60)}): images as data: URLs|Nimic de pe alte adrese (${outside.slice(0, 60)}): imaginile ca adrese data:`;
  return null;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function renderTemplate(nodes: Node[], data: TemplateData): string {
  const out = (list: Node[], item: Record<string, string> | null): string =>
    list
      .map((n) => {
        if (n.kind === 'text') return n.text;
        if (n.kind === 'field') return escapeHtml((item && n.name in item ? item[n.name] : data.root[n.name as RootField]) ?? '');
        return data.items.map((line) => out(n.body, line)).join('');
      })
      .join('');
  return out(nodes, null);
}
