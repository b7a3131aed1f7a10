import nodemailer from 'nodemailer';
import type { SmtpConfig } from './smtp-settings';

export interface OutgoingMail {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; content: Buffer | string }[];
}

/** Why a send failed, in our words: the route turns it into the envelope (and the log keeps it). */
export class MailFailure extends Error {
  constructor(
    readonly code: 'smtp_unreachable' | 'smtp_auth_failed' | 'smtp_rejected',
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'MailFailure';
  }
}

/** A firm's server that does not answer must not hold the request (and the client) for minutes. */
const CONNECT_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

/**
 * One message through the firm's own SMTP server (nodemailer), a new connection each time: a shop
 * sends a few invoices a day, and a pool would keep a login open to a server we do not own.
 */
export async function sendMail(config: SmtpConfig, mail: OutgoingMail): Promise<{ messageId: string }> {
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.security === 'tls',
    requireTLS: config.security === 'starttls',
    ignoreTLS: config.security === 'none',
    ...(config.username ? { auth: { user: config.username, pass: config.password ?? '' } } : {}),
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    // The service has no DNS of its own for mail: the firm names its server, we only connect to it.
    name: 'tejghea.local',
  });
  try {
    const info = await transport.sendMail({
      from: config.fromName ? { name: config.fromName, address: config.fromAddress } : config.fromAddress,
      ...(config.replyTo ? { replyTo: config.replyTo } : {}),
      to: mail.to,
      ...(mail.cc.length ? { cc: mail.cc } : {}),
      ...(mail.bcc.length ? { bcc: mail.bcc } : {}),
      subject: mail.subject,
      text: mail.text,
      attachments: mail.attachments,
    });
    if (info.rejected.length) throw new MailFailure('smtp_rejected', `refused: ${info.rejected.map(String).join(', ')}`);
    return { messageId: info.messageId };
  } catch (error) {
    throw error instanceof MailFailure ? error : classify(error);
  } finally {
    transport.close();
  }
}

/** nodemailer's error codes (`EAUTH`, `ECONNECTION`…) and the server's reply, sorted into our three. */
function classify(error: unknown): MailFailure {
  const e = error as { code?: unknown; response?: unknown; responseCode?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const reply = typeof e.response === 'string' ? e.response : typeof e.message === 'string' ? e.message : String(error);
  const detail = reply.replace(/\s+/g, ' ').trim().slice(0, 300);
  if (code === 'EAUTH' || code === 'ENOAUTH') return new MailFailure('smtp_auth_failed', detail);
  if (code === 'EENVELOPE' || code === 'EMESSAGE' || typeof e.responseCode === 'number') return new MailFailure('smtp_rejected', detail);
  // ECONNECTION, ETIMEDOUT, EDNS, ESOCKET, ETLS and the system's own (ECONNREFUSED…).
  return new MailFailure('smtp_unreachable', detail);
}
