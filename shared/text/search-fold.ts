/**
 * Text as the searches compare it: lower case, diacritics removed (ș and ş → s, ț and ţ → t, ă and
 * â → a, î → i, and any other accented letter to its base), whitespace runs made one space. A
 * cashier types "stefanesti" for "Ştefăneşti" (the cedilla letters are still common in old data), so
 * both sides of a comparison go through this one function: the stored search column and the term.
 */
export function foldForSearch(text: string | null | undefined): string {
  if (!text) return '';
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
