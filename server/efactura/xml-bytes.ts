import iconv from 'iconv-lite';

/**
 * The text of an XML file as its bytes say: a UTF-8 or UTF-16 byte order mark, else the encoding
 * its declaration names (Romanian producers still write windows-1250 or ISO-8859-2), else UTF-8.
 * An encoding we cannot decode is an error that names it, never mojibake read as data.
 */
export class XmlEncodingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlEncodingError';
  }
}

export function decodeXmlBytes(bytes: Uint8Array): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return buf.subarray(3).toString('utf8');
  if (buf[0] === 0xff && buf[1] === 0xfe) return iconv.decode(buf.subarray(2), 'utf-16le');
  if (buf[0] === 0xfe && buf[1] === 0xff) return iconv.decode(buf.subarray(2), 'utf-16be');
  // The declaration is ASCII in every encoding a declaration may name.
  const head = buf.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
  if (!declared || declared === 'utf-8' || declared === 'utf8') {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(buf);
    return text;
  }
  if (!iconv.encodingExists(declared)) throw new XmlEncodingError(`the XML declares the encoding "${declared}", which cannot be read`);
  return iconv.decode(buf, declared);
}
