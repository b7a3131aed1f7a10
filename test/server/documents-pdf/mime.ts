/**
 * Just enough MIME to read back what the service sent: the headers and each part of a multipart
 * message, base64 parts decoded. (The tests need no general parser: nodemailer writes the message.)
 */
export interface MimePart {
  headers: Record<string, string>;
  body: Buffer;
}

function splitHead(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decode(headers: Record<string, string>, body: string): Buffer {
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    const text = body.replace(/=\r\n/g, '');
    return Buffer.from(text.replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
  }
  return Buffer.from(body, 'utf8');
}

/** The message's headers and its leaf parts (nested multiparts flattened). */
export function parseMime(raw: string): { headers: Record<string, string>; parts: MimePart[] } {
  const { headers, body } = splitHead(raw);
  return { headers, parts: leaves(headers, body) };
}

function leaves(headers: Record<string, string>, body: string): MimePart[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (!boundary) return [{ headers, body: decode(headers, body) }];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .flatMap((chunk) => {
      const part = splitHead(chunk.replace(/^\r\n/, '').replace(/\r\n$/, ''));
      return leaves(part.headers, part.body);
    });
}
