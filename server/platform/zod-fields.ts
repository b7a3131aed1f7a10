import { z } from 'zod';
import type { Locale } from './locale';

/** One message per failing member, keyed by its dotted path (`items.0.quantity`), in the caller's language. */
export function fieldsFromZod(error: z.ZodError, locale: Locale, prefix = ''): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(body)';
    if (!(path in fields)) fields[path] = describeIssue(issue, locale);
  }
  return fields;
}

function describeIssue(issue: z.core.$ZodIssue, locale: Locale): string {
  const ro = locale === 'ro';
  switch (issue.code) {
    case 'invalid_type':
      if (isMissing(issue)) return ro ? 'Câmp obligatoriu.' : 'Required.';
      return ro ? `Tip greșit: se aștepta ${issue.expected}.` : `Expected ${issue.expected}.`;
    case 'too_big':
      return ro ? `Trebuie să fie cel mult ${String(issue.maximum)}.` : `Must be at most ${String(issue.maximum)}.`;
    case 'too_small':
      return ro ? `Trebuie să fie cel puțin ${String(issue.minimum)}.` : `Must be at least ${String(issue.minimum)}.`;
    case 'invalid_value':
      return ro
        ? `Valoare nepermisă; valori posibile: ${issue.values.map(String).join(', ')}.`
        : `Must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'invalid_format':
      // `.regex(re, 'English|Română')` says what the rule wants better than we can; only zod's own text is replaced.
      if (issue.message !== zodDefaultMessage(issue)) return pickLanguage(issue.message, locale);
      return ro ? `Format nevalid (${issue.format}).` : `Invalid format (${issue.format}).`;
    case 'unrecognized_keys':
      return ro ? `Câmpuri necunoscute: ${issue.keys.join(', ')}.` : `Unknown members: ${issue.keys.join(', ')}.`;
    case 'custom':
      // Our refinements carry "en|ro" messages so both languages live beside the rule.
      return pickLanguage(issue.message, locale);
    default:
      return pickLanguage(issue.message, locale);
  }
}

/**
 * The message zod gives an issue whose rule carries none: its locale's text, made from the issue
 * alone (for a regex, `Invalid string: must match pattern /…/`). zod keeps no other trace of whether
 * the message was the schema's own.
 */
function zodDefaultMessage(issue: z.core.$ZodIssueInvalidStringFormat): string | undefined {
  const made = z.config().localeError?.({ ...issue, input: issue.input });
  return typeof made === 'string' ? made : (made?.message ?? undefined);
}

/**
 * A member that is absent, not one of the wrong type. zod carries the input only when parsed with
 * `reportInput: true` (the route helper does); otherwise its own message says what it received.
 */
function isMissing(issue: z.core.$ZodIssue): boolean {
  if ('input' in issue) return issue.input === undefined;
  return /received undefined$/.test(issue.message);
}

/** Messages written as `English text|Text românesc` give each language its own text. */
export function pickLanguage(message: string, locale: Locale): string {
  const bar = message.indexOf('|');
  if (bar < 0) return message;
  return locale === 'ro' ? message.slice(bar + 1) : message.slice(0, bar);
}
