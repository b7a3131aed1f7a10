export type Locale = 'en' | 'ro';

/** `locale` query parameter first, then Accept-Language; English by default (spec, general rule 6). */
export function resolveLocale(queryLocale: unknown, acceptLanguage: string | undefined): Locale {
  if (queryLocale === 'ro' || queryLocale === 'en') return queryLocale;
  if (!acceptLanguage) return 'en';
  const tags = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((t) => t.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    if (tag === 'ro' || tag.startsWith('ro-')) return 'ro';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'en';
}
