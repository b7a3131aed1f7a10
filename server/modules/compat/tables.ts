/** An invoice the firm marked as sent to its client (POST /invoices/{id}/mark-sent); the first mark stays. */
export interface InvoiceSentMarksTable {
  invoice_id: string;
  company_id: string;
  /** Unix seconds. */
  sent_at: number;
}

/** The key that signs a company's PDF links (compat/pdf-link.ts): random, made on first use. */
export interface PdfLinkKeysTable {
  company_id: string;
  /** 32 random bytes, base64url. */
  secret: string;
  created_at: number;
}

export interface CompatTables {
  invoice_sent_marks: InvoiceSentMarksTable;
  pdf_link_keys: PdfLinkKeysTable;
}
