/** A file attached to a document of the firm (issue 18: Contazen's document attachments). */
export interface DocumentAttachmentsTable {
  id: string;
  company_id: string;
  /** invoice, client, product, expense or supplier_bill. */
  document_type: string;
  document_id: string;
  file_name: string;
  content_type: string;
  /** Bytes of `content`. */
  size: number;
  /** Hex SHA-256 of `content`: the client can check a download, and we can see the same file twice. */
  sha256: string;
  description: string | null;
  /** The file itself, base64: bytes in the database, see docs/api-decisions.md. */
  content: string;
  created_at: number;
}

export interface AttachmentsTables {
  document_attachments: DocumentAttachmentsTable;
}
