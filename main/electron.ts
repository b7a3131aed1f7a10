import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, shell, type WebContents } from 'electron';
import { IPC_EVENT, IPC_INVOKE, type EventName } from '../shared/ipc/channels';
import { ELECTRON_PDF_OPTIONS } from '../shared/print/pdf-layout';
import type { PdfRenderer } from '../server/modules/documents-pdf/pdf-renderer';
import { EventHub } from './app/event-hub';
import { createMainServices, type RunningServices } from './app/services';
import { createRouter } from './ipc/index';
import { senderCheck } from './ipc/sender';
import { SafeStorageSecretStore } from './secrets/safe-storage';
import {
  APP_CSP, APP_HOST, APP_ORIGIN, APP_SCHEME, cspFor, isAppUrl, MAIN_WINDOW_PREFERENCES, opensExternally, PRINT_CSP, PRINT_WINDOW_PREFERENCES,
  requestAllowed,
} from './electron-policy';

/**
 * The Electron main process. The renderer is served from a privileged custom scheme (`app://tejghea`),
 * never from file:// (every file:// page would share one origin) nor from the network. Hardening, each
 * one enforced here and not left to defaults: contextIsolation, sandbox, no nodeIntegration, no
 * webview; a strict CSP on every response of the app's session; every request that is not the app's
 * own scheme is cancelled (no remote content); navigation away and new windows are denied; every
 * permission request is refused; the sender frame of every IPC message is checked (main frame, app
 * origin). The preload is built as one CommonJS file at dist/preload/index.cjs (see preload/index.ts).
 */

const SCHEME = APP_SCHEME;
const here = fileURLToPath(new URL('.', import.meta.url));
const distRoot = join(here, '..');
const rendererDir = join(distRoot, 'renderer');
const preloadPath = join(distRoot, 'preload', 'index.cjs');

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.woff': 'font/woff', '.webp': 'image/webp',
};

/** Print documents waiting to be rendered, served once each from app://tejghea/__print/<id>.html. */
const printJobs = new Map<string, string>();

protocol.registerSchemesAsPrivileged([
  { scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false } },
]);

function serveApp(request: Request): Response {
  const url = new URL(request.url);
  if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
  const printMatch = /^\/__print\/([0-9a-f-]{36})\.html$/.exec(url.pathname);
  if (printMatch) {
    const html = printJobs.get(printMatch[1]!);
    if (html === undefined) return new Response('Not found', { status: 404 });
    return new Response(html, { headers: { 'content-type': MIME['.html']!, 'content-security-policy': PRINT_CSP } });
  }
  const pathname = decodeURIComponent(url.pathname);
  let target = normalize(join(rendererDir, pathname));
  if (target !== rendererDir && !target.startsWith(rendererDir + sep)) return new Response('Not found', { status: 404 });
  if (!existsSync(target) || extname(pathname) === '') target = join(rendererDir, 'index.html');
  if (!existsSync(target)) {
    return new Response('The renderer is not built: run npm run build:renderer', { status: 503, headers: { 'content-type': 'text/plain' } });
  }
  return new Response(readFileSync(target), {
    headers: { 'content-type': MIME[extname(target)] ?? 'application/octet-stream', 'content-security-policy': APP_CSP, 'x-content-type-options': 'nosniff' },
  });
}

function hardenSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  // No remote content: only the app's own scheme (and devtools in development) may load anything.
  ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !requestAllowed(details.url) }));
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [cspFor(details.url)] } });
  });
}

function lockDown(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    // Links to the outside open in the user's browser, never inside the app.
    if (opensExternally(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** One HTML document printed to PDF in a hidden window: the "Save PDF" of the app, and the embedded service's PDFs. */
async function printHtmlToPdf(html: string): Promise<Buffer> {
  const id = randomUUID();
  printJobs.set(id, html);
  const win = new BrowserWindow({
    show: false,
    webPreferences: { ...PRINT_WINDOW_PREFERENCES },
  });
  try {
    await win.loadURL(`${APP_ORIGIN}/__print/${id}.html`);
    // The template sets its own page margins (CSS @page), so Chromium adds none; the footer (page x
    // of y) is the same one the browser tests print with (shared/print/pdf-layout).
    return await win.webContents.printToPDF({ ...ELECTRON_PDF_OPTIONS, margins: { top: 0, bottom: 0, left: 0, right: 0 } });
  } finally {
    printJobs.delete(id);
    win.destroy();
  }
}

async function savePdf(parent: BrowserWindow | null, html: string, fileName: string): Promise<{ saved: boolean; path: string | null }> {
  return saveBytes(parent, await printHtmlToPdf(html), fileName);
}

/**
 * The embedded service prints with Electron's own Chromium (GET /invoices/{id}/pdf, e-mailed invoices):
 * no second browser to ship or launch. Each document gets its own hidden window, so there is nothing to close.
 */
const electronPdfRenderer: PdfRenderer = {
  render: printHtmlToPdf,
  close: async () => undefined,
};

/** Asks where to save a PDF (the Documents folder by default) and writes it; cancelled: `saved` false. */
async function saveBytes(parent: BrowserWindow | null, bytes: Uint8Array, fileName: string): Promise<{ saved: boolean; path: string | null }> {
  const options = { defaultPath: join(app.getPath('documents'), fileName), filters: [{ name: 'PDF', extensions: ['pdf'] }] };
  const choice = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
  if (choice.canceled || !choice.filePath) return { saved: false, path: null };
  await writeFile(choice.filePath, bytes);
  return { saved: true, path: choice.filePath };
}

let mainWindow: BrowserWindow | null = null;
let services: RunningServices | null = null;

function broadcast(event: EventName, payload: unknown): void {
  for (const win of BrowserWindow.getAllWindows()) {
    if (!win.isDestroyed()) win.webContents.send(IPC_EVENT, event, payload);
  }
}

async function start(): Promise<void> {
  const single = app.requestSingleInstanceLock();
  if (!single) {
    // One process owns the database and the outbox; a second instance only focuses the first.
    app.quit();
    return;
  }
  await app.whenReady();
  protocol.handle(SCHEME, serveApp);
  hardenSession();
  app.on('web-contents-created', (_event, contents) => lockDown(contents));

  const dataDir = process.env.TEJGHEA_DATA_DIR ?? app.getPath('userData');
  const hub = new EventHub();
  hub.subscribe(broadcast);
  services = createMainServices({
    dataDir,
    defaultApiUrl: process.env.TEJGHEA_API_URL ?? 'https://api.tejghea.ro/v1',
    // Without a preset address, the first-run screen offers the embedded service or a remote one.
    presetService: Boolean(process.env.TEJGHEA_API_URL),
    secrets: new SafeStorageSecretStore(safeStorage, dataDir),
    host: {
      kind: 'electron',
      savePdf: (html, fileName) => savePdf(mainWindow, html, fileName),
      saveFile: (bytes, fileName) => saveBytes(mainWindow, bytes, fileName),
    },
    appVersion: app.getVersion(),
    emit: hub.emit,
    pdfRenderer: electronPdfRenderer,
    // better-sqlite3 built for Electron's ABI, beside the Node build the tests use.
    ...(process.env.TEJGHEA_SQLITE_BINDING ? { nativeBinding: process.env.TEJGHEA_SQLITE_BINDING } : {}),
  });
  await services.ready();
  const router = createRouter(services, senderCheck([APP_ORIGIN]));
  ipcMain.handle(IPC_INVOKE, (event, channel: unknown, payload: unknown) => {
    const frame = event.senderFrame;
    return router.dispatch(channel, payload, {
      host: 'electron',
      url: frame?.url ?? '',
      isMainFrame: frame !== null && frame === event.sender.mainFrame,
    });
  });

  mainWindow = new BrowserWindow({
    width: 1280,
    height: 800,
    show: false,
    webPreferences: { ...MAIN_WINDOW_PREFERENCES, preload: preloadPath },
  });
  mainWindow.once('ready-to-show', () => mainWindow?.show());
  await mainWindow.loadURL(`${APP_ORIGIN}/index.html`);
}

app.on('window-all-closed', () => {
  void (async () => {
    await services?.close();
    services = null;
    app.quit();
  })();
});

start().catch((error: unknown) => {
  dialog.showErrorBox('Tejghea', error instanceof Error ? error.message : String(error));
  app.exit(1);
});
