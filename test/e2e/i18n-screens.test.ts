import { beforeAll, describe, expect, it } from 'vitest';
import { ro } from '../../renderer/i18n/ro';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { seed, startE2eServer, type E2eServer } from './support/stack';

/**
 * Every screen, rendered in Romanian at 1366×768, shows only words of the Romanian catalogue in its
 * interface (headings, buttons, column heads, labels, placeholders, tooltips): a string written in
 * a component instead of ro.ts, or an English one, fails here. Data (names, numbers, codes) is not
 * interface and is not read: only elements that carry the interface's own words are.
 */
let server: E2eServer;
let desktop: Desktop;

beforeAll(async () => {
  server = await startE2eServer();
  await seed(server);
  desktop = await openDevice(server);
  await desktop.page.setViewportSize({ width: 1366, height: 768 });
}, 240_000);

closeStackAfterAll(() => ({ desktop, server }));

const messages = Object.values(ro as Record<string, string>);
const patterns = messages.map((m) => new RegExp(`^${m.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '.+')}$`, 's'));

/** Languages are offered in their own names, as every language menu does. */
const SELF_NAMED = new Set(['Română', 'English']);

/**
 * A UI text is known when it is a catalogue message (placeholders filled), a piece of one, or one
 * followed by data ("Seria TJ"); a leading symbol (+, ⟳) and line breaks between messages are layout.
 */
function known(text: string): boolean {
  return text
    .split('\n')
    .map((part) => part.replace(/^[^\p{L}\d]+/u, '').trim())
    .filter((part) => part !== '')
    .every((part) => SELF_NAMED.has(part) || patterns.some((p) => p.test(part)) || messages.some((m) => m.includes(part) || part.startsWith(`${m} `) || part.startsWith(`${m}: `)));
}

describe('Romanian on every screen', () => {
  it('shows no interface string missing from the Romanian catalogue', async () => {
    const { page } = desktop;
    const routes = ['#/counter', '#/dashboard', '#/invoices', '#/receipts', '#/clients', '#/products', '#/expenses', '#/supplier-bills', '#/suppliers', '#/stock', '#/nir', '#/nirs', '#/stock-count', '#/stock-transfer', '#/series', '#/sync', '#/settings'];
    const unknown = new Set<string>();
    for (const route of routes) {
      await desktop.open(route);
      await page.waitForTimeout(300);
      const texts = await page.evaluate(() => {
        const out: string[] = [];
        const own = (el: Element) =>
          [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '').join(' ').replace(/\s+/g, ' ').trim();
        for (const el of document.querySelectorAll('h1, h2, h3, button, th, label, summary, .group, .nav a, option')) out.push(own(el));
        for (const el of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
          for (const a of ['placeholder', 'aria-label', 'title']) {
            const v = el.getAttribute(a);
            if (v) out.push(v.trim());
          }
        }
        return out;
      });
      for (const text of texts) {
        // Not words: numbers, codes, keys, symbols.
        if (!/\p{L}{2,}/u.test(text) || /^[A-Z]{1,3}\d*$/.test(text) || /^F\d+$/.test(text)) continue;
        // Record ids in tooltips and "name — description" of a series are data.
        if (/^[a-z]+_[A-Za-z0-9]{8,}$/.test(text) || text.includes(' — ') || /^https?:\/\//.test(text)) continue;
        if (!known(text)) unknown.add(`${route}: ${text}`);
      }
    }
    expect([...unknown]).toEqual([]);
  });
});
