import type { Browser } from 'playwright-core';
import { PDF_OPTIONS } from '../../../shared/print/pdf-layout';
import { PdfRendererUnavailable, type PdfRenderer } from './pdf-renderer';

/** Where Debian's (and this project's CI's) Chromium is; CHROMIUM_PATH overrides it. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * A server has no display and often runs as root in a container: no sandbox, no GPU, and none of the
 * background traffic (updates, safe browsing) a browser makes on its own. The documents are ours,
 * from our templates, with every value escaped; JavaScript is off in their pages anyway.
 */
export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] as const;

/**
 * How long one document may take to print before the request gives up (a wedged browser). An invoice
 * of 5,000 lines (MAX_INVOICE_LINES) is some 150 pages: 20-40 s on a busy two-core machine, so 2 minutes.
 */
const RENDER_TIMEOUT_MS = 120_000;

/**
 * The system Chromium, driven by playwright-core (which downloads no browser of its own). Launched on
 * the first PDF asked for, not at start: a service that never prints never starts a browser. Then kept
 * and reused, one fresh page per document; `close()` (the app's onClose hook) ends the process.
 */
export class ChromiumPdfRenderer implements PdfRenderer {
  private browser: Promise<Browser> | null = null;

  constructor(private readonly executablePath: string = DEFAULT_CHROMIUM_PATH) {}

  async render(html: string): Promise<Buffer> {
    const browser = await this.launch();
    const page = await browser.newPage({ javaScriptEnabled: false });
    try {
      page.setDefaultTimeout(RENDER_TIMEOUT_MS);
      await page.setContent(html, { waitUntil: 'load' });
      return await page.pdf({ ...PDF_OPTIONS });
    } finally {
      await page.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    const pending = this.browser;
    this.browser = null;
    if (!pending) return;
    const browser = await pending.catch(() => null);
    await browser?.close().catch(() => undefined);
  }

  private launch(): Promise<Browser> {
    if (this.browser) return this.browser;
    const launching = (async () => {
      // Loaded here: the desktop build (which prints through Electron) never needs it.
      const { chromium } = await import('playwright-core');
      try {
        const browser = await chromium.launch({ executablePath: this.executablePath, args: [...CHROMIUM_FLAGS] });
        // A browser that died (killed, crashed) is launched again on the next document.
        browser.on('disconnected', () => {
          if (this.browser === launching) this.browser = null;
        });
        return browser;
      } catch (error) {
        throw new PdfRendererUnavailable(`${this.executablePath}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      }
    })();
    this.browser = launching;
    // A failed launch is not remembered: the next request tries again (Chromium installed meanwhile).
    launching.catch(() => {
      if (this.browser === launching) this.browser = null;
    });
    return launching;
  }
}

/**
 * The renderer the service uses when nobody hands it one: Chromium at CHROMIUM_PATH (default
 * /usr/bin/chromium). `CHROMIUM_PATH=` (empty) or `PDF_RENDERER=off` turns PDFs off: the routes then
 * answer 501 `pdf_not_available`.
 */
export function pdfRendererFromEnv(env: NodeJS.ProcessEnv): PdfRenderer | null {
  if (env.PDF_RENDERER === 'off' || env.CHROMIUM_PATH === '') return null;
  return new ChromiumPdfRenderer(env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH);
}
