import type { AttachmentContentType } from '../../../shared/schemas/attachment';

/**
 * What the bytes are, from their first bytes (and, for the kinds a signature cannot tell apart, the
 * file name's extension). The declared `content_type` is checked against this, so a file kept as a
 * PDF is a PDF: a client that later serves it with its stored type serves what it claims to be.
 * null: a kind we do not keep.
 */
export function sniffContentType(bytes: Buffer, fileName: string): AttachmentContentType | null {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (starts([0x50, 0x4b, 0x03, 0x04])) {
    if (ext === 'xlsx') return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    if (ext === 'docx') return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    return 'application/zip';
  }
  if (!isText(bytes)) return null;
  const text = bytes.subarray(0, 512).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('<')) return 'application/xml';
  return ext === 'csv' ? 'text/csv' : 'text/plain';
}

/** Valid UTF-8 without NUL or other control bytes but tab, CR and LF. */
function isText(bytes: Buffer): boolean {
  for (const b of bytes) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return false;
  return Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}

/** Whether a declared type says the same as the bytes: the text kinds are one family (a CSV is text, XML is text). */
export function sameKind(declared: AttachmentContentType, sniffed: AttachmentContentType): boolean {
  if (declared === sniffed) return true;
  const text = new Set<AttachmentContentType>(['text/plain', 'text/csv']);
  const xml = new Set<AttachmentContentType>(['application/xml', 'text/xml']);
  const zip = new Set<AttachmentContentType>([
    'application/zip',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ]);
  if (text.has(declared)) return text.has(sniffed) || xml.has(sniffed);
  if (xml.has(declared)) return xml.has(sniffed);
  return zip.has(declared) && zip.has(sniffed);
}
