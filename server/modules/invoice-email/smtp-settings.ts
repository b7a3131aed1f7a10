import { z } from 'zod';
import type { Db } from '../../db/types';
import { ApiError, notFound } from '../../platform/errors';
import { defineRoute, type AnyRoute } from '../../platform/route';
import type { Services } from '../../platform/services';
import { zDeleted } from '../../platform/envelope';
import { openToken, sealToken } from '../efactura-spv/token-store';
import type { SmtpSettingsTable } from './tables';
import './messages';

export const SMTP_SECURITY = ['tls', 'starttls', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

const zHost = z.string().trim().min(1).max(253).regex(/^[A-Za-z0-9.:\-[\]]+$/, { error: 'Not a host name|Nu este un nume de server' });

/** What a firm sets. The password is write-only: no GET ever answers it. */
export const zSmtpSettingsInput = z.strictObject({
  host: zHost,
  port: z.number().int().min(1).max(65535).optional(),
  security: z.enum(SMTP_SECURITY).default('starttls'),
  username: z.string().max(320).nullable().optional(),
  /** Omitted: the stored one is kept; null: cleared. */
  password: z.string().max(1000).nullable().optional(),
  from_address: z.email().max(320),
  from_name: z.string().trim().max(200).nullable().optional(),
  reply_to: z.email().max(320).nullable().optional(),
});

export const zSmtpSettings = z.object({
  object: z.literal('smtp_settings'),
  host: z.string(),
  port: z.number().int(),
  security: z.enum(SMTP_SECURITY),
  username: z.string().nullable(),
  /** Whether a password is stored (never the password). */
  has_password: z.boolean(),
  from_address: z.string(),
  from_name: z.string().nullable(),
  reply_to: z.string().nullable(),
  updated_at: z.number().int(),
});

/** The usual port of each kind of connection, when the firm does not say. */
const DEFAULT_PORT: Record<SmtpSecurity, number> = { tls: 465, starttls: 587, none: 25 };

function view(row: SmtpSettingsTable): z.infer<typeof zSmtpSettings> {
  return {
    object: 'smtp_settings',
    host: row.host,
    port: Number(row.port),
    security: row.security as SmtpSecurity,
    username: row.username,
    has_password: row.password !== null,
    from_address: row.from_address,
    from_name: row.from_name,
    reply_to: row.reply_to,
    updated_at: Number(row.updated_at),
  };
}

/** The settings a send uses, the password opened. */
export interface SmtpConfig {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  password: string | null;
  fromAddress: string;
  fromName: string | null;
  replyTo: string | null;
}

function settingsRow(db: Db, companyId: string): Promise<SmtpSettingsTable | undefined> {
  return db.selectFrom('smtp_settings').selectAll().where('company_id', '=', companyId).executeTakeFirst();
}

export async function loadSmtpConfig(db: Db, services: Services, companyId: string): Promise<SmtpConfig> {
  const row = await settingsRow(db, companyId);
  if (!row) throw new ApiError(409, 'invalid_request_error', 'smtp_not_configured');
  let password: string | null = null;
  if (row.password !== null) {
    try {
      password = openToken(services.anaf?.tokenKey ?? null, companyId, row.password, row.password_encryption === 'none' ? 'none' : 'aes-256-gcm');
    } catch {
      throw new ApiError(409, 'configuration_error', 'smtp_password_unreadable');
    }
  }
  return {
    host: row.host,
    port: Number(row.port),
    security: row.security as SmtpSecurity,
    username: row.username,
    password,
    fromAddress: row.from_address,
    fromName: row.from_name,
    replyTo: row.reply_to,
  };
}

const getSettings = defineRoute({
  method: 'GET',
  path: '/settings/email',
  operationId: 'getEmailSettings',
  summary: 'The company’s outgoing mail server (SMTP)',
  description: 'Our addition: the server invoices are e-mailed through (POST /invoices/{id}/send). The password is never returned: `has_password` says whether one is stored. 404 `resource_missing` until set.',
  tags: ['settings'],
  scope: 'fiscal_data:read',
  response: zSmtpSettings,
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await settingsRow(ctx.db, ctx.companyId);
    if (!row) throw notFound('settings');
    return view(row);
  },
});

const putSettings = defineRoute({
  method: 'PUT',
  path: '/settings/email',
  operationId: 'updateEmailSettings',
  summary: 'Set the company’s outgoing mail server (SMTP)',
  description:
    'Our addition. `security`: `tls` (TLS from the start, port 465 by default), `starttls` (upgraded, and refused when the server cannot; 587), `none` (plain; 25). The password is stored sealed with the service key when it has one (ANAF_TOKEN_KEY); omitted, the stored one is kept; null clears it. Nothing is checked against the server here: the first send says what is wrong.',
  tags: ['settings'],
  scope: 'fiscal_data:write',
  body: zSmtpSettingsInput,
  response: zSmtpSettings,
  handler: async (ctx) => {
    const b = ctx.body;
    const current = await settingsRow(ctx.db, ctx.companyId);
    const key = ctx.services.anaf?.tokenKey ?? null;
    const password =
      b.password === undefined
        ? { password: current?.password ?? null, password_encryption: current?.password_encryption ?? 'none' }
        : { password: b.password === null ? null : sealToken(key, ctx.companyId, b.password), password_encryption: key ? 'aes-256-gcm' : 'none' };
    const values = {
      host: b.host,
      port: b.port ?? DEFAULT_PORT[b.security],
      security: b.security,
      username: b.username ?? null,
      ...password,
      from_address: b.from_address,
      from_name: b.from_name ?? null,
      reply_to: b.reply_to ?? null,
      updated_at: ctx.now,
    };
    await ctx.db
      .insertInto('smtp_settings')
      .values({ company_id: ctx.companyId, ...values, created_at: ctx.now })
      .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
      .execute();
    return view((await settingsRow(ctx.db, ctx.companyId))!);
  },
});

const deleteSettings = defineRoute({
  method: 'DELETE',
  path: '/settings/email',
  operationId: 'deleteEmailSettings',
  summary: 'Forget the company’s outgoing mail server',
  tags: ['settings'],
  scope: 'fiscal_data:write',
  response: zDeleted('smtp_settings'),
  envelope: 'top',
  handler: async (ctx) => {
    await ctx.db.deleteFrom('smtp_settings').where('company_id', '=', ctx.companyId).execute();
    return { id: ctx.companyId, object: 'smtp_settings' as const, deleted: true as const };
  },
});

export const smtpSettingsRoutes: AnyRoute[] = [getSettings, putSettings, deleteSettings];
