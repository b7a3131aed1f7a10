import { CNP_NOT_GIVEN, type EInvoiceDocument } from '../../efactura/index';
import type { PartySnapshot } from '../invoicing/catalog-bridge';

/**
 * The e-Factura buyer of a walk-in sale (a person who gave no identification, docs/api-decisions.md):
 * - BT-47, the legal registration id: ANAF's thirteen zeros for a person who gives no CNP (OUG 138/2024);
 *   that is what BR-RO-120 needs, and the upload goes to ANAF's B2C endpoint like any other person's.
 * - BT-50, BT-52, BT-54 (street, city, county): CIUS-RO wants all three for every buyer (BR-RO-082,
 *   BR-RO-092, BR-RO-111 with an ISO 3166-2:RO county, SECTORn in Bucharest by BR-RO-101). A walk-in gave
 *   none, and the goods changed hands at the counter: the place of sale stands for the address, the
 *   seller's address as the document states it (already in the forms CIUS-RO wants). The printed invoice
 *   shows neither the zeros nor this address: only "Persoană fizică".
 */
export function walkInParty(snapshot: PartySnapshot, seller: EInvoiceDocument['seller']): EInvoiceDocument['buyer'] {
  return {
    name: snapshot.name,
    cnp: CNP_NOT_GIVEN,
    address: { ...seller.address },
  };
}
