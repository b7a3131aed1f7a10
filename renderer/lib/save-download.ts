/**
 * Bytes the host handed over as base64 become a download in the browser: the web host cannot save
 * files itself, and Electron's renderer saves the same way.
 */
export function saveBase64InBrowser(base64: string, fileName: string, contentType: string): void {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: contentType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked later, not at once: the browser may still be reading the blob for the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
