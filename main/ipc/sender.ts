import type { SenderCheck, SenderInfo } from './router';

/** `scheme://host` of a URL, also for custom schemes (where `URL.origin` is the string "null"). */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (!parsed.host) return null;
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}

/**
 * Calls are accepted from the app's own page only: the main frame (never an iframe), at one of the
 * app's origins (`app://tejghea` in Electron; the web host's own `http://127.0.0.1:<port>`).
 */
export function senderCheck(allowedOrigins: readonly string[]): SenderCheck {
  const allowed = new Set(allowedOrigins.map((o) => o.replace(/\/+$/, '')));
  return (sender: SenderInfo) => {
    if (!sender.isMainFrame) return false;
    const origin = originOf(sender.url);
    return origin !== null && allowed.has(origin);
  };
}
