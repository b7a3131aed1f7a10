/** The firm's outgoing mail server (one per company). */
export interface SmtpSettingsTable {
  company_id: string;
  host: string;
  port: number;
  /** 'tls': TLS from the first byte (465); 'starttls': plain, then upgraded, refused if the server cannot (587); 'none': plain (a relay on the LAN). */
  security: string;
  username: string | null;
  /** Sealed with ANAF_TOKEN_KEY when the service has one (`password_encryption` 'aes-256-gcm'), else in clear ('none'). */
  password: string | null;
  password_encryption: string;
  from_address: string;
  from_name: string | null;
  reply_to: string | null;
  created_at: number | string | bigint;
  updated_at: number | string | bigint;
}

/** One e-mail the service sent (or tried to) with a document attached: the log a firm reads back. */
export interface InvoiceEmailsTable {
  id: string;
  company_id: string;
  work_point_id: string;
  invoice_id: string;
  /** JSON arrays of addresses. */
  to_json: string;
  cc_json: string;
  bcc_json: string;
  subject: string;
  /** 'sent' or 'failed'. */
  status: string;
  /** The SMTP server's message id when sent. */
  message_id: string | null;
  /** Our error code and the server's reply when failed. */
  error_code: string | null;
  error_detail: string | null;
  attachments_json: string;
  created_at: number | string | bigint;
}

export interface InvoiceEmailTables {
  smtp_settings: SmtpSettingsTable;
  invoice_emails: InvoiceEmailsTable;
}
