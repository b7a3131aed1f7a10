import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/storage';
import { startTestServer, type TestServer } from '../support/server';
import type { CreatedKey } from '../../server/platform/api-keys';
import { bucharestMidnight } from '../../server/platform/list';

const DAY = 86_400;
/** 2026-11-21 00:00 in Bucharest (UTC+2 in winter) is 2026-11-20 22:00 UTC. */
const NOV21 = Date.parse('2026-11-20T22:00:00Z') / 1000;

describe('Bucharest day boundaries', () => {
  it('puts midnight at UTC+2 in winter and UTC+3 in summer', () => {
    expect(bucharestMidnight('2026-11-21')).toBe(NOV21);
    expect(bucharestMidnight('2026-07-01')).toBe(Date.parse('2026-06-30T21:00:00Z') / 1000);
    // The days clocks change (29 March, 25 October 2026) still start at local midnight.
    expect(bucharestMidnight('2026-03-29')).toBe(Date.parse('2026-03-28T22:00:00Z') / 1000);
    expect(bucharestMidnight('2026-10-25')).toBe(Date.parse('2026-10-24T21:00:00Z') / 1000);
  });
});

describe.each(DIALECTS)('list parameters on GET /work-points (%s)', (dialect) => {
  let server: TestServer;
  let key: CreatedKey;
  let total: number;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    key = await server.key({ workPointName: 'Sediu central' });
    const rows = Array.from({ length: 130 }, (_, i) => ({
      id: `wp_list${String(i).padStart(3, '0')}${dialect}`,
      company_id: key.company_id,
      name: `Punct ${String(i).padStart(3, '0')}`,
      address: i % 10 === 0 ? `Strada Zece nr. ${i}` : null,
      // One every 6 hours back from 2026-11-21 12:00 Bucharest: the rows span about 32 days.
      created_at: NOV21 + 12 * 3600 - i * 6 * 3600,
      updated_at: null,
    }));
    rows.push(
      { id: `wp_pct${dialect}`, company_id: key.company_id, name: 'Reducere 50% Cluj', address: null, created_at: NOV21 - 1, updated_at: null },
      { id: `wp_und${dialect}`, company_id: key.company_id, name: 'Punct_special', address: null, created_at: NOV21, updated_at: null },
    );
    await server.storage.db.insertInto('work_points').values(rows).execute();
    // Another company's rows must never count.
    const other = await server.key();
    await server.storage.db
      .insertInto('work_points')
      .values(Array.from({ length: 7 }, (_, i) => ({ id: `wp_other${i}${dialect}`, company_id: other.company_id, name: `Punct ${i}`, address: null, created_at: NOV21, updated_at: null })))
      .execute();
    total = 130 + 2 + 1;
  });
  afterAll(async () => {
    await server?.close();
  });

  const list = async (query: string) => {
    const res = await server.api(key.api_key, 'GET', `/work-points${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as { object: string; data: Array<{ id: string; name: string; created_at: number; company?: unknown }>; has_more: boolean; total: number; page: number; per_page: number; total_pages: number };
  };

  it('pages by 50 by default with has_more, total and total_pages', async () => {
    const first = await list('');
    expect(first).toMatchObject({ object: 'list', page: 1, per_page: 50, total, total_pages: 3, has_more: true });
    expect(first.data).toHaveLength(50);
    const last = await list('?page=3');
    expect(last).toMatchObject({ page: 3, has_more: false, total });
    expect(last.data).toHaveLength(total - 100);
    const beyond = await list('?page=9');
    expect(beyond).toMatchObject({ data: [], has_more: false, total, page: 9 });
  });

  it('covers every row exactly once across pages', async () => {
    const ids: string[] = [];
    for (let page = 1; ; page += 1) {
      const p = await list(`?per_page=17&page=${page}&sort=created_at`);
      ids.push(...p.data.map((w) => w.id));
      if (!p.has_more) break;
    }
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(ids.some((id) => id.startsWith('wp_other'))).toBe(false);
  });

  it('accepts per_page up to 100 and answers 101 with a validation error naming per_page', async () => {
    expect((await list('?per_page=100')).data).toHaveLength(100);
    for (const q of ['?per_page=101', '?per_page=0', '?page=0', '?per_page=abc']) {
      const res = await server.api(key.api_key, 'GET', `/work-points${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
      expect(Object.keys(res.body.error.fields), q).toEqual([q.slice(1).split('=')[0]]);
    }
    const res = await server.api(key.api_key, 'GET', '/work-points?per_page=101');
    expect(res.body.error.fields.per_page).toBe('Must be at most 100.');
  });

  it('sorts by an allowed field in either order, and refuses other fields', async () => {
    const asc = await list('?sort=name&order=asc&per_page=100');
    const names = asc.data.map((w) => w.name);
    expect(names).toEqual([...names].sort());
    const desc = await list('?sort=name&order=desc&per_page=100');
    expect(desc.data[0]!.name).toBe('Sediu central');
    const newest = await list('?sort=created_at');
    const times = newest.data.map((w) => w.created_at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const oldest = await list('?sort=created_at&order=asc');
    expect(oldest.data[0]!.id).toBe(`wp_list129${dialect}`);
    const bad = await server.api(key.api_key, 'GET', '/work-points?sort=address');
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.sort).toBe('Must be one of: name, created_at.');
  });

  it('searches case-insensitively in name and address, with % and _ taken literally', async () => {
    expect((await list('?search=punct%20012')).data.map((w) => w.name)).toEqual(['Punct 012']);
    const zece = await list('?search=ZECE&per_page=100');
    expect(zece.total).toBe(13);
    expect((await list(`?search=${encodeURIComponent('50%')}`)).data.map((w) => w.name)).toEqual(['Reducere 50% Cluj']);
    expect((await list('?search=t_s')).data.map((w) => w.name)).toEqual(['Punct_special']);
    expect((await list('?search=nimic')).total).toBe(0);
  });

  it('filters by creation day in Europe/Bucharest with start_date and end_date', async () => {
    // On the 21st: three of the series (12:00, 06:00, 00:00 local), Punct_special at 00:00 sharp, and
    // the key's own work point, made at the test clock's 10:00Z (12:00 local).
    const day = await list('?start_date=2026-11-21&end_date=2026-11-21&per_page=100');
    expect(day.data.every((w) => w.created_at >= NOV21 && w.created_at < NOV21 + DAY)).toBe(true);
    expect(day.total).toBe(5);
    const before = await list('?end_date=2026-11-20&per_page=100');
    expect(before.data.every((w) => w.created_at < NOV21)).toBe(true);
    // One second before the 21st began in Bucharest is still the 20th.
    expect((await list('?end_date=2026-11-20&search=reducere')).total).toBe(1);
    expect((await list('?start_date=2026-11-21&search=reducere')).total).toBe(0);
    expect(before.total + day.total).toBe(total);
    const week = await list('?start_date=2026-11-14&end_date=2026-11-20&per_page=100');
    expect(week.total).toBe(7 * 4 + 1);
    const bad = await server.api(key.api_key, 'GET', '/work-points?start_date=2026-11-21&end_date=2026-11-20');
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields).toEqual({ end_date: 'Must not be before start_date.' });
    const ro = await server.api(key.api_key, 'GET', '/work-points?start_date=2026-11-21&end_date=2026-11-20&locale=ro');
    expect(ro.body.error.fields).toEqual({ end_date: 'Nu poate fi înainte de start_date.' });
    const notADay = await server.api(key.api_key, 'GET', '/work-points?start_date=2026-02-30');
    expect(notADay.status).toBe(422);
    expect(notADay.body.error.fields.start_date).toBe('Not a calendar date');
  });

  it('expands the company with expand[]=company or expand=company, and refuses unknown expansions', async () => {
    expect((await list('?per_page=2')).data[0]!.company).toBeUndefined();
    for (const q of ['?expand[]=company&per_page=2', '?expand=company&per_page=2', '?expand%5B%5D=company&per_page=2']) {
      const page = await list(q);
      expect(page.data[0]!.company, q).toMatchObject({ id: key.company_id, object: 'company' });
    }
    const bad = await server.api(key.api_key, 'GET', '/work-points?expand[]=owner');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(['expand[]']);
  });
});
