/**
 * The Electron security policy as plain data and pure functions (no `electron` import), so that it is
 * tested without the Electron binary; main/electron.ts applies it.
 */

export const APP_SCHEME = 'app';
export const APP_HOST = 'tejghea';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** The app's own pages: scripts and styles from the app only, nothing remote, no eval, no framing. */
export const APP_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:", "font-src 'self' data:",
  "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'", "object-src 'none'",
].join('; ');

/** The print window renders the renderer's HTML template: no script at all, nothing remote. */
export const PRINT_CSP = ["default-src 'none'", "style-src 'unsafe-inline'", "img-src data:", "font-src data:"].join('; ');

/** webPreferences of every window that shows the app. */
export const MAIN_WINDOW_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webviewTag: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  spellcheck: false,
} as const;

/** The hidden window that turns a print template into a PDF: JavaScript off as well. */
export const PRINT_WINDOW_PREFERENCES = { ...MAIN_WINDOW_PREFERENCES, javascript: false } as const;

/** A URL of the app itself (navigation inside the app is allowed, anything else is not). */
export function isAppUrl(url: string): boolean {
  return url.startsWith(`${APP_ORIGIN}/`);
}

/** Whether the session lets a request through: the app's scheme only (and devtools). No remote content. */
export function requestAllowed(url: string): boolean {
  return isAppUrl(url) || url.startsWith('devtools://');
}

/** A link the user clicked that may open in the system browser (never inside the app). */
export function opensExternally(url: string): boolean {
  return /^https:\/\/[^/]+/.test(url);
}

/** The CSP a response of the app's session gets. */
export function cspFor(url: string): string {
  return url.startsWith(`${APP_ORIGIN}/__print/`) ? PRINT_CSP : APP_CSP;
}
