import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseUblTsv, ublValidatorAvailability, ublValidatorsDir, validateUblFiles } from '../../server/efactura/validator';

const availability = ublValidatorAvailability();
const skipReason = availability.available ? '' : `UBL validators unavailable: ${availability.reason}`;

describe('validate.sh --tsv parsing', () => {
  it('parses rows, merged layers and per-file summaries', () => {
    const out = [
      '/tmp/a.xml\tfatal\tBR-S-02\tcen,anaf\t/Invoice[1]\t[BR-S-02]-An Invoice that contains ...',
      '/tmp/a.xml\twarning\tUBL-CR-681\tcen,anaf\t/Invoice[1]\t[UBL-CR-681]-A UBL invoice should not include\tthe PaymentMeans InstructionNote',
      'ubl: /tmp/a.xml: 1 fatal, 1 warnings',
      'ubl: /tmp/b.xml: 0 fatal, 0 warnings',
      'ubl: 1 fatal, 1 warnings (2 files, 1 with fatal)',
    ].join('\n');
    const { findings, summaries } = parseUblTsv(out);
    expect(findings).toEqual([
      { file: '/tmp/a.xml', flag: 'fatal', id: 'BR-S-02', layers: ['cen', 'anaf'], location: '/Invoice[1]', message: '[BR-S-02]-An Invoice that contains ...' },
      { file: '/tmp/a.xml', flag: 'warning', id: 'UBL-CR-681', layers: ['cen', 'anaf'], location: '/Invoice[1]', message: '[UBL-CR-681]-A UBL invoice should not include\tthe PaymentMeans InstructionNote' },
    ]);
    expect(summaries.get('/tmp/a.xml')).toEqual({ fatal: 1, warnings: 1 });
    expect(summaries.get('/tmp/b.xml')).toEqual({ fatal: 0, warnings: 0 });
    expect(summaries.get(null)).toEqual({ fatal: 1, warnings: 1 });
  });

  it('refuses output it does not understand instead of dropping it', () => {
    expect(() => parseUblTsv('something went wrong')).toThrow(/unexpected line/);
  });
});

describe('validator location', () => {
  const saved = process.env.UBL_VALIDATORS_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.UBL_VALIDATORS_DIR;
    else process.env.UBL_VALIDATORS_DIR = saved;
  });

  it('defaults to ../shared/validators/ubl beside the repo', () => {
    delete process.env.UBL_VALIDATORS_DIR;
    expect(ublValidatorsDir()).toBe(join(process.cwd(), '..', 'shared', 'validators', 'ubl'));
  });

  it('reports unavailability with a reason instead of failing', async () => {
    process.env.UBL_VALIDATORS_DIR = '/nonexistent/validators';
    const a = ublValidatorAvailability();
    expect(a.available).toBe(false);
    if (!a.available) expect(a.reason).toMatch(/no validate\.sh in \/nonexistent\/validators/);
    const r = await validateUblFiles(['/tmp/x.xml']);
    expect(r).toEqual({ available: false, reason: expect.stringMatching(/UBL_VALIDATORS_DIR/) });
  });
});

describe.skipIf(Boolean(skipReason))(`running the harness${skipReason ? ` [skipped: ${skipReason}]` : ''}`, () => {
  it('validates a single file (the harness prints no per-file summary then)', async () => {
    const good = join(ublValidatorsDir(), 'samples', 'ro-minimal.xml');
    const r = await validateUblFiles([good], 'strict');
    if (!r.available) throw new Error(r.reason);
    expect(r.files).toEqual([{ file: good, fatal: [], warnings: [] }]);
    expect(r.fatalCount).toBe(0);
  });

  it('reports the shared broken sample with its rule ids under the anaf profile', async () => {
    const broken = join(ublValidatorsDir(), 'samples', 'broken-no-seller-vat.xml');
    const missing = join(ublValidatorsDir(), 'samples', 'does-not-exist.xml');
    const r = await validateUblFiles([broken, missing], 'anaf');
    if (!r.available) throw new Error(r.reason);
    expect(r.files[0]!.fatal.map((f) => f.id)).toEqual(expect.arrayContaining(['BR-S-02', 'BR-RO-065']));
    // The cen layer is not in this profile, so its UBL-SR-53 must not appear.
    expect(r.files[0]!.fatal.map((f) => f.id)).not.toContain('UBL-SR-53');
    expect(r.files[1]!.fatal.map((f) => f.id)).toEqual(['XML-WF']);
  });
});
