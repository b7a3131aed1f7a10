import { validateCui } from '../../../shared/ro/cui';
import type { AnafServices } from '../../../server/platform/services';

export interface FoundCompany {
  cui: string;
  name: string;
  reg_com: string;
  address: string;
  street: string;
  city: string;
  county: string;
  postal_code: string;
  vat_payer: boolean;
  vat_on_collection: boolean;
}

export type LookupResult =
  | { status: 'found'; company: FoundCompany }
  | { status: 'not_found' }
  | { status: 'invalid_cui'; reason: 'format' | 'checksum' }
  | { status: 'unreachable' };

/**
 * ANAF's public registry for the first-run screen, through the same client (and the same ANAF_*
 * settings) the embedded service uses. No key exists yet, so the service's own lookup route cannot be
 * called: this is the one place the desktop asks ANAF itself. A timeout or any failure is
 * `unreachable`: the screen then asks for the data by hand.
 */
export async function lookupCompanyAtAnaf(anaf: AnafServices, cuiText: string, timeoutMs = 8_000): Promise<LookupResult> {
  const cui = validateCui(cuiText);
  if (!cui.ok) return { status: 'invalid_cui', reason: cui.reason };
  try {
    const found = await anaf.publicData.lookupCompany(cui.value, { signal: AbortSignal.timeout(timeoutMs) });
    if (!found) return { status: 'not_found' };
    const street = [found.street, found.street_number ? `nr. ${found.street_number}` : ''].filter(Boolean).join(' ');
    return {
      status: 'found',
      company: {
        cui: found.cui,
        name: found.name,
        reg_com: found.reg_com,
        address: found.address,
        street,
        city: found.city,
        county: found.county,
        postal_code: found.postal_code,
        vat_payer: found.vat_payer,
        vat_on_collection: found.vat_on_collection,
      },
    };
  } catch {
    return { status: 'unreachable' };
  }
}
