import { callIpc } from '../data/hooks';
import { IpcCallError } from '../ipc';

/**
 * Printing from the renderer, the same way in both hosts: the document goes into a hidden iframe
 * and that frame's print() opens the system dialog (Electron and Chromium alike). The frame stays in
 * the page until the next print, so what was printed can be inspected.
 */
export function printHtml(html: string): Promise<void> {
  let frame = document.getElementById('print-frame') as HTMLIFrameElement | null;
  if (!frame) {
    frame = document.createElement('iframe');
    frame.id = 'print-frame';
    frame.setAttribute('data-testid', 'print-frame');
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    frame.style.cssText = 'position:fixed;right:0;bottom:0;width:0;height:0;border:0;visibility:hidden;';
    document.body.appendChild(frame);
  }
  const target = frame;
  return new Promise((resolve) => {
    target.onload = () => {
      try {
        target.contentWindow?.focus();
        target.contentWindow?.print();
      } finally {
        // The keyboard comes back to the app: left in the hidden frame, the next scans would be lost.
        target.blur();
        window.focus();
        resolve();
      }
    };
    target.srcdoc = html;
  });
}

export type SavePdfOutcome = 'saved' | 'cancelled' | 'unsupported';

/**
 * Saves a PDF where the host can (Electron's printToPDF with a save dialog); a host that cannot
 * (the browser) answers `not_supported_in_host` and the caller falls back to printing, where the
 * browser's own dialog offers "Save as PDF".
 */
export async function savePdf(html: string, fileName: string): Promise<SavePdfOutcome> {
  try {
    const result = await callIpc('documents.savePdf', { html, file_name: fileName });
    return result.saved ? 'saved' : 'cancelled';
  } catch (error) {
    if (error instanceof IpcCallError && error.code === 'not_supported_in_host') return 'unsupported';
    throw error;
  }
}

/** A file name from a document number: 'TJ-2026-0042' -> 'Factura-TJ-2026-0042.pdf'. */
export function pdfFileName(prefix: string, number: string | null): string {
  const safe = (number ?? 'ciorna').replace(/[^\w.-]+/g, '_');
  return `${prefix}-${safe}.pdf`;
}
