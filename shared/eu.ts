/**
 * The EU member states by the country code a VAT id is written with: the ISO 3166 code, and for
 * Greece both GR (ISO, what an address carries) and EL (its VAT prefix). Shared by the service,
 * which checks an intra-community supply before sending it to e-Factura, and the counter, which
 * tells the cashier before issuing it.
 */
export const EU_MEMBER_STATES: readonly string[] = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'ES', 'FI', 'FR', 'GR', 'HR',
  'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
];

const EU = new Set(EU_MEMBER_STATES);

/** A member state other than Romania: where an intra-community supply (art. 294 alin. (2)) goes. */
export function isOtherEuMemberState(country: string): boolean {
  const code = country.trim().toUpperCase();
  return code !== 'RO' && EU.has(code);
}

/**
 * A foreign party's VAT id as e-Factura states it, or null when its tax code is not one. A code that
 * starts with two letters already carries its country prefix (DE123456789); the bare number of a
 * VAT-registered buyer in another member state gets its country's prefix (EL for Greece). Anything
 * else is a registration number, not a VAT id.
 */
export function foreignVatId(code: string | null | undefined, vatPayer: boolean, country: string): string | null {
  const id = code?.replace(/\s+/g, '').toUpperCase() ?? '';
  if (!id) return null;
  if (/^[A-Z]{2}/.test(id)) return id;
  const state = country.trim().toUpperCase();
  if (vatPayer && isOtherEuMemberState(state)) return `${state === 'GR' ? 'EL' : state}${id}`;
  return null;
}
