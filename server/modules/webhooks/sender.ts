import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** How the service posts webhooks; from the environment in serve.ts (docs/service-settings.md). */
export interface WebhookSettings {
  /** Whole-request timeout of one attempt, milliseconds. */
  timeoutMs: number;
  /**
   * Refuse addresses of private, loopback and link-local networks. Off by default: the service the
   * desktop app embeds posts to the shop's own LAN. A hosted service turns it on (SSRF).
   */
  blockPrivateAddresses: boolean;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = { timeoutMs: 10_000, blockPrivateAddresses: false };

export interface PostResult {
  /** The receiver's status; null when no reply came (network error, timeout, refused address). */
  statusCode: number | null;
  /** Why the attempt failed; null on a 2xx. */
  error: string | null;
}

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) PRIVATE.addSubnet(net, prefix, 'ipv6');

/** An address of a private, loopback, link-local or otherwise non-public network (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

class RefusedAddress extends Error {}

/**
 * A DNS lookup that refuses private answers. The check is on the address the socket then connects
 * to, so a name that resolves to a public address once and a private one later (DNS rebinding) is
 * still refused.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const allowed = addresses.filter((a) => !isPrivateAddress(a.address));
    if (allowed.length === 0) return callback(new RefusedAddress(`${hostname} resolves to a private address`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    return callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};

/**
 * One POST of a webhook body. Never follows a redirect (a 3xx is a failed attempt: the body must not
 * land on another host than the one the firm registered), refuses schemes other than http(s), and
 * gives up after `timeoutMs` whatever stage it is at. The reply's body is read (up to 2 KiB, kept
 * for the error) and discarded.
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, settings: WebhookSettings): Promise<PostResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ statusCode: null, error: 'invalid URL' });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.resolve({ statusCode: null, error: `scheme ${target.protocol} refused` });
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // An IP literal is never looked up, so the lookup's check would not see it.
  if (settings.blockPrivateAddresses && (host === 'localhost' || (isIP(host) !== 0 && isPrivateAddress(host)))) {
    return Promise.resolve({ statusCode: null, error: `private address ${host} refused` });
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Tejghea-Webhooks/1' },
        ...(settings.blockPrivateAddresses ? { lookup: publicOnlyLookup } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < 2048) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return done({ statusCode: status, error: null });
          const text = Buffer.concat(chunks).toString('utf8').slice(0, 300).trim();
          const location = status >= 300 && status < 400 && res.headers.location ? ` (redirect to ${res.headers.location} not followed)` : '';
          done({ statusCode: status, error: `HTTP ${status}${location}${text ? `: ${text}` : ''}` });
        });
        res.on('error', (error) => done({ statusCode: res.statusCode ?? null, error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      done({ statusCode: null, error: `timeout after ${settings.timeoutMs} ms` });
      req.destroy();
    }, settings.timeoutMs);
    req.on('error', (error) => done({ statusCode: null, error: error instanceof RefusedAddress ? error.message : `${(error as NodeJS.ErrnoException).code ?? 'error'}: ${error.message}` }));
    req.end(body);
  });
}
