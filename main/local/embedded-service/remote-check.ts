import { z } from 'zod';
import { zMe, type Me } from '../../api/endpoints';

/**
 * What "Conectare la un serviciu" learns before it saves anything. Each failure has its own code so
 * the screen can say in Romanian what to do about it.
 */
export type RemoteCheck =
  | { ok: true; base_url: string; me: Me }
  | { ok: false; problem: 'unreachable'; base_url: string }
  | { ok: false; problem: 'wrong_key'; base_url: string }
  | { ok: false; problem: 'missing_v1'; base_url: string; suggested_url: string }
  | { ok: false; problem: 'not_a_service'; base_url: string }
  | { ok: false; problem: 'refused'; base_url: string; status: number; message: string }
  | { ok: false; problem: 'other_company'; base_url: string; key_company: string; local_company: string };

export interface RemoteCheckInput {
  base_url: string;
  api_key: string;
  /** The company the local data belongs to (what /me said last time), if any. */
  localCompany: { name: string; cui: string } | null;
  timeoutMs?: number;
}

const zErrorEnvelope = z.object({ error: z.object({ message: z.string(), code: z.string().optional() }) });

/** Trailing slashes off: `http://host:8787/v1/` and `…/v1` are one address. */
export function normalizeBase(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

type Probe = { kind: 'network' } | { kind: 'http'; status: number; json: unknown };

async function probeMe(base: string, key: string, timeoutMs: number): Promise<Probe> {
  let res: Response;
  try {
    res = await fetch(`${base}/me`, {
      // The service's own refusal is shown as it words it: in Romanian, as the first-run screen is.
      headers: { authorization: `Bearer ${key}`, accept: 'application/json', 'accept-language': 'ro' },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
  } catch {
    return { kind: 'network' };
  }
  const text = await res.text().catch(() => '');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { kind: 'http', status: res.status, json };
}

/** Whether a reply is the service's own (its envelope), not some other web server's page. */
function isServiceReply(p: Probe): boolean {
  if (p.kind !== 'http') return false;
  if (p.status === 200) return zMe.safeParse((p.json as { data?: unknown } | null)?.data ?? p.json).success;
  return zErrorEnvelope.safeParse(p.json).success;
}

/**
 * GET /me with the key at the address typed. A 404 (or a page that is not the service's) at the
 * address typed, where the same address plus `/v1` answers as the service does, means the `/v1`
 * was left out: the screen offers the corrected address.
 */
export async function checkRemoteService(input: RemoteCheckInput): Promise<RemoteCheck> {
  const base = normalizeBase(input.base_url);
  const timeoutMs = input.timeoutMs ?? 8_000;
  const probe = await probeMe(base, input.api_key, timeoutMs);
  if (probe.kind === 'network') return { ok: false, problem: 'unreachable', base_url: base };
  // The service answers an unknown path with its own 404 envelope: the address is one level too high.
  if (!isServiceReply(probe) || probe.status === 404) {
    if (!/\/v1$/.test(base)) {
      const withV1 = `${base}/v1`;
      const second = await probeMe(withV1, input.api_key, timeoutMs);
      if (isServiceReply(second) && second.kind === 'http' && second.status !== 404) {
        return { ok: false, problem: 'missing_v1', base_url: base, suggested_url: withV1 };
      }
    }
    return { ok: false, problem: 'not_a_service', base_url: base };
  }
  const refusal = zErrorEnvelope.safeParse(probe.json);
  // A key the service knows but will not accept from this address is no wrong key: its message says why.
  if (probe.status === 401 && refusal.data?.error.code !== 'ip_restricted') return { ok: false, problem: 'wrong_key', base_url: base };
  if (probe.status !== 200) {
    const message = refusal;
    return { ok: false, problem: 'refused', base_url: base, status: probe.status, message: message.success ? message.data.error.message : '' };
  }
  const me = zMe.parse((probe.json as { data?: unknown }).data ?? probe.json);
  if (input.localCompany && input.localCompany.cui !== me.company.cui) {
    return { ok: false, problem: 'other_company', base_url: base, key_company: `${me.company.name} (${me.company.cui})`, local_company: `${input.localCompany.name} (${input.localCompany.cui})` };
  }
  return { ok: true, base_url: base, me };
}
