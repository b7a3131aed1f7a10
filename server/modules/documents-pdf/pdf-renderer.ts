/**
 * Turns a printable HTML document (shared/print's templates) into PDF bytes. The service does not
 * care which engine does it: a headless Chromium on a server (chromium-renderer.ts), Electron's own
 * printToPDF when the service is embedded in the desktop app. Both print with the same page layout
 * (shared/print/pdf-layout: A4, the template's margins, the "Pagina x / y" footer).
 */
export interface PdfRenderer {
  /** The PDF of one HTML document. Throws {@link PdfRendererUnavailable} when the engine cannot start. */
  render(html: string): Promise<Buffer>;
  /** Frees the engine (a browser process); later renders may start it again. */
  close(): Promise<void>;
}

/** The engine is missing or would not start (no Chromium at the configured path, say). */
export class PdfRendererUnavailable extends Error {
  constructor(readonly detail: string) {
    super(`PDF renderer unavailable: ${detail}`);
    this.name = 'PdfRendererUnavailable';
  }
}
