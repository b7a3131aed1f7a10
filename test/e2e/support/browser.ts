import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** The system Chromium, never a downloaded one (`npx playwright install` is not allowed here). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * Text of a PDF as poppler's pdftotext reads it: -layout keeps each table row on one line; -raw
 * keeps the order in which the page was drawn (the document order), for running text.
 */
export function pdfText(pdf: Uint8Array, mode: 'layout' | 'raw' = 'layout'): string {
  const dir = mkdtempSync(join(tmpdir(), 'tejghea-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', [`-${mode}`, '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Number of pages, from pdfinfo. */
export function pdfPages(pdf: Uint8Array): number {
  const dir = mkdtempSync(join(tmpdir(), 'tejghea-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    const match = /^Pages:\s+(\d+)/m.exec(info);
    return match ? Number(match[1]) : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Renders page 1 of a PDF to PNG bytes at `dpi` (pdftoppm), for looking at the layout. */
export function pdfPagePng(pdf: Uint8Array, dpi = 60, page = 1): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'tejghea-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', file, join(dir, 'page')]);
    return readFileSync(join(dir, 'page.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Collapses runs of whitespace, so assertions do not depend on pdftotext's column layout. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
