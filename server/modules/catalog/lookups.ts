/**
 * What other modules (invoicing, expenses) need from the catalog, in one place. Use these rather
 * than querying the tables: RON, the language `ro` and the standard VAT rates have no rows.
 */
export { isCurrencyEnabled, currencyDescription, DEFAULT_CURRENCY, ISO_4217 } from './currencies';
export { isLanguageEnabled, DEFAULT_LANGUAGE } from './languages';
export { isVatRateAllowed, allowedVatRates } from './vat-rates';
export { findClient, insertClient, toClient, type ClientCreateInput } from './clients';
export { findProduct, toProduct } from './products';
export { defaultBankAccount, toBankAccount } from './bank-accounts';
export { addReference, isReferenced, type Reference, type ReferenceKind } from './references';
