/** An invoice the firm marked as sent to its client (POST /invoices/{id}/mark-sent); the first mark stays. */
export interface InvoiceSentMarksTable {
  invoice_id: string;
  company_id: string;
  /** Unix seconds. */
  sent_at: number;
}

export interface CompatTables {
  invoice_sent_marks: InvoiceSentMarksTable;
}
