export {
  CIUS_RO_CUSTOMIZATION_ID,
  CNP_NOT_GIVEN,
  EInvoiceDocumentError,
  RO_COUNTY_CODES,
  VAT_CATEGORIES,
  bucharestSectorCode,
  eInvoiceDocumentSchema,
  parseEInvoiceDocument,
  vatInRon,
  type EInvoiceAddress,
  type EInvoiceDocument,
  type EInvoiceLine,
  type EInvoiceParty,
  type EInvoiceVatBreakdown,
  type ParsedEInvoiceDocument,
  type VatCategory,
} from './document';
export { toUblXml, formatAmount, formatQuantity, formatPercent } from './ubl-write';
export { parseUblInvoice, parsedUblInvoiceSchema, UblParseError, type ParsedUblInvoice, type UblParseErrorCode } from './ubl-read';
export {
  UBL_PROFILES,
  formatFindings,
  parseUblTsv,
  ublValidatorAvailability,
  ublValidatorsDir,
  validateUblFiles,
  type UblFileReport,
  type UblFinding,
  type UblProfile,
  type UblValidationResult,
  type UblValidatorAvailability,
} from './validator';
