import { rename, renameValues, type AliasRule } from '../../platform/aliases';

/**
 * The names Contazen's PHP SDK gives a product's members (docs/api-decisions.md, "Member aliases"):
 * `sku` is our `code`, `unit_of_measure` our `unit`, `ubl_um` our `unit_code`, and `sell_price`
 * (which the SDK fills with a copy of `price` on every create) our `price`.
 */
export const PRODUCT_ALIASES: AliasRule[] = [
  rename('sku', 'code'),
  rename('unit_of_measure', 'unit'),
  rename('ubl_um', 'unit_code'),
  rename('sell_price', 'price'),
];

/** `cui_prefix: "RO"` beside the bare CUI (how the SDK splits a VAT payer's code): one `cui` again. */
const joinCuiPrefix: AliasRule = (input) => {
  const prefix = input.cui_prefix;
  // Without a CUI to join, the prefix stays and is refused as unknown: it says nothing alone.
  if (typeof prefix !== 'string' || typeof input.cui !== 'string') return input;
  const { cui_prefix: _dropped, ...rest } = input;
  const cui = input.cui.trim();
  return { ...rest, cui: prefix && !cui.toUpperCase().startsWith(prefix.trim().toUpperCase()) ? `${prefix.trim()}${cui}` : cui };
};

/**
 * A client's members under the SDK's names, on POST/PUT /clients and on an invoice's inline client:
 * `rc` is `reg_com`, `cui_prefix` joins `cui`, and its `type` values b2b/business are our `company`,
 * b2c/individual our `person`.
 */
export const CLIENT_ALIASES: AliasRule[] = [
  rename('rc', 'reg_com'),
  joinCuiPrefix,
  renameValues('type', { b2b: 'company', business: 'company', b2c: 'person', individual: 'person' }),
];
