import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** A parsed XML document reduced to its root: local name, namespace, and the element as a plain object. */
export interface XmlRoot {
  name: string;
  namespace: string | undefined;
  /** Attributes as `@_name`, children by local name (namespace prefixes removed). */
  element: Record<string, unknown>;
}

const ALWAYS_ARRAYS = new Set(['Errors', 'Error', 'Messages']);

// htmlEntities: ANAF's error reports carry numeric references (&#xA;&#x9;) that the default leaves encoded.
const withPrefixes = new XMLParser({
  htmlEntities: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: false,
  parseTagValue: false,
  parseAttributeValue: false,
});

const localNames = new XMLParser({
  htmlEntities: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ALWAYS_ARRAYS.has(name),
});

export function isWellFormedXml(text: string): true | { message: string; line: number; column: number } {
  const result = XMLValidator.validate(text);
  if (result === true) return true;
  return { message: result.err.msg, line: result.err.line, column: result.err.col };
}

/** Null when the text is not well-formed XML or has no root element. */
export function parseXmlRoot(text: string): XmlRoot | null {
  if (isWellFormedXml(text) !== true) return null;
  const raw = withPrefixes.parse(text) as Record<string, unknown>;
  const qname = Object.keys(raw).find((k) => !k.startsWith('?') && !k.startsWith('#'));
  if (!qname) return null;
  const rawRoot = raw[qname];
  const colon = qname.indexOf(':');
  const prefix = colon >= 0 ? qname.slice(0, colon) : undefined;
  const attrs = rawRoot && typeof rawRoot === 'object' ? (rawRoot as Record<string, unknown>) : {};
  const nsValue = attrs[prefix ? `@_xmlns:${prefix}` : '@_xmlns'];
  const local = localNames.parse(text) as Record<string, unknown>;
  const localName = colon >= 0 ? qname.slice(colon + 1) : qname;
  const element = local[localName];
  return {
    name: localName,
    namespace: typeof nsValue === 'string' ? nsValue : undefined,
    element: element && typeof element === 'object' ? (element as Record<string, unknown>) : {},
  };
}

/** Escapes text for a double-quoted XML attribute; newlines and tabs as character references so they survive attribute normalisation. */
export function xmlAttr(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#xA;')
    .replace(/\t/g, '&#x9;');
}
