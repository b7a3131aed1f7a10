import { createHash, sign, type KeyObject } from 'node:crypto';

/**
 * The `semnatura_<index>.xml` of a descarcare ZIP: a detached XML-DSig over the document, with a
 * real SHA-256 digest and a real RSA signature of SignedInfo, so a test can verify what it got.
 * ANAF's own file carries its X509 certificate; the simulator has no CA, so it sends the bare key.
 */
export function detachedSignature(fileName: string, document: Uint8Array, privateKey: KeyObject, publicJwk: { n: string; e: string }): string {
  const digest = createHash('sha256').update(document).digest('base64');
  const signedInfo =
    '<SignedInfo xmlns="http://www.w3.org/2000/09/xmldsig#">' +
    '<CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>' +
    '<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>' +
    `<Reference URI="${fileName}">` +
    '<DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>' +
    `<DigestValue>${digest}</DigestValue>` +
    '</Reference>' +
    '</SignedInfo>';
  const value = sign('sha256', Buffer.from(signedInfo, 'utf8'), privateKey).toString('base64');
  const b64 = (b64url: string) => Buffer.from(b64url, 'base64url').toString('base64');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">' +
    signedInfo.replace(' xmlns="http://www.w3.org/2000/09/xmldsig#"', '') +
    `<SignatureValue>${value}</SignatureValue>` +
    `<KeyInfo><KeyValue><RSAKeyValue><Modulus>${b64(publicJwk.n)}</Modulus><Exponent>${b64(publicJwk.e)}</Exponent></RSAKeyValue></KeyValue></KeyInfo>` +
    '</Signature>\n'
  );
}
