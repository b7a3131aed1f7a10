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
