import { ApiError } from '../../platform/errors';
import type { Services } from '../../platform/services';
import { PdfRendererUnavailable } from './pdf-renderer';
import './messages';

/**
 * One document's PDF through the service's renderer, with the two ways it can fail said in the
 * envelope: no renderer at all (501, a property of this installation) or one that would not start
 * now (503, worth a retry). Anything else the renderer throws is our bug and stays a 500.
 */
export async function renderPdf(services: Services, html: string): Promise<Buffer> {
  const renderer = services.pdf;
  if (!renderer) throw new ApiError(501, 'configuration_error', 'pdf_not_available');
  try {
    return await renderer.render(html);
  } catch (error) {
    if (error instanceof PdfRendererUnavailable) {
      throw new ApiError(503, 'api_error', 'pdf_renderer_unavailable', { vars: { detail: error.detail.slice(0, 200) } });
    }
    throw error;
  }
}

/** A file name made of the document number (RO-0001.pdf): letters, digits, dot and dash only. */
export function pdfFileName(number: string | null | undefined, fallback: string): string {
  const base = (number ?? '').replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '');
  return `${base || fallback}.pdf`;
}

/**
 * Chromium stamps each PDF with the moment it was printed (/CreationDate, /ModDate); everything else
 * is a function of the HTML. The monthly archive must be the same bytes when made again, so its PDFs
 * carry the document's own date instead: same length, so the cross-reference offsets stay right.
 */
export function pdfDatedAt(pdf: Buffer, isoDate: string): Buffer {
  const stamp = `${isoDate.replace(/-/g, '')}000000`;
  if (!/^\d{14}$/.test(stamp)) return pdf;
  const text = pdf.toString('latin1').replace(/\/(CreationDate|ModDate) ?\(D:\d{14}/g, (whole) => `${whole.slice(0, -14)}${stamp}`);
  return Buffer.from(text, 'latin1');
}
