import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * Runs the shared UBL / EN 16931 / CIUS-RO validation harness (../shared/validators/ubl beside the
 * repo, see its README) over a batch of files in ONE JVM call: most of the ~2 s per call is rule
 * compilation, so validating files one by one would multiply it.
 */

export const UBL_PROFILES = ['strict', 'anaf', 'cen', 'ro'] as const;
export type UblProfile = (typeof UBL_PROFILES)[number];

export const ublFindingSchema = z.object({
  file: z.string(),
  flag: z.enum(['fatal', 'warning']),
  /** Rule id: BR-RO-065, BR-S-08, UBL-SR-53; XSD for schema errors, XML-WF for unparsable files. */
  id: z.string(),
  /** Which layers reported it: xsd, cen, anaf, ro (or xml for unparsable input). */
  layers: z.array(z.string()),
  location: z.string(),
  message: z.string(),
});
export type UblFinding = z.infer<typeof ublFindingSchema>;

export interface UblFileReport {
  file: string;
  fatal: UblFinding[];
  warnings: UblFinding[];
}

export type UblValidatorAvailability =
  | { available: true; dir: string; java: string }
  | { available: false; dir: string; reason: string };

export type UblValidationResult =
  | {
      available: true;
      profile: UblProfile;
      /** One entry per input path, in input order, keyed by the path as given. */
      files: UblFileReport[];
      findings: UblFinding[];
      fatalCount: number;
      warningCount: number;
      durationMs: number;
    }
  | { available: false; reason: string };

/** Walks up from this module to the folder holding package.json: the repo root. */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

/** UBL_VALIDATORS_DIR, else ../shared/validators/ubl relative to the repo root. */
export function ublValidatorsDir(): string {
  const override = process.env.UBL_VALIDATORS_DIR;
  return override ? resolve(override) : resolve(repoRoot(), '..', 'shared', 'validators', 'ubl');
}

function findOnPath(program: string): string | null {
  const candidates: string[] = [];
  if (process.env.JAVA_HOME && program === 'java') candidates.push(join(process.env.JAVA_HOME, 'bin', 'java'));
  for (const d of (process.env.PATH ?? '').split(delimiter)) if (d) candidates.push(join(d, program));
  for (const c of candidates) {
    try {
      if (statSync(c).isFile()) {
        accessSync(c, constants.X_OK);
        return c;
      }
    } catch {
      // not there or not executable: try the next one
    }
  }
  return null;
}

/** Whether the harness can run here: the folder with validate.sh, and a java executable. */
export function ublValidatorAvailability(): UblValidatorAvailability {
  const dir = ublValidatorsDir();
  if (!existsSync(join(dir, 'validate.sh'))) {
    return { available: false, dir, reason: `UBL validators not found: no validate.sh in ${dir} (set UBL_VALIDATORS_DIR)` };
  }
  const java = findOnPath('java');
  if (!java) return { available: false, dir, reason: 'java is not installed (run setup.sh in the validators folder)' };
  // Without Saxon, validate.sh would start setup.sh, which installs packages: never from a test.
  const saxon = process.env.SAXON_JAR ?? '/usr/share/java/Saxon-HE.jar';
  if (!existsSync(saxon)) return { available: false, dir, reason: `Saxon-HE not found at ${saxon} (run setup.sh in the validators folder)` };
  const build = process.env.UBL_BUILD_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'ubl-validate');
  if (!existsSync(join(build, 'UblValidate.class')) && !findOnPath('javac')) {
    return { available: false, dir, reason: `the validator runner is not compiled in ${build} and javac is missing (run setup.sh)` };
  }
  return { available: true, dir, java };
}

const SUMMARY = /^ubl: (?:(.*): )?(\d+) fatal, (\d+) warnings/;

/**
 * Parses validate.sh --tsv output. Rows are file, flag, id, layers, location, message; lines
 * starting with "ubl:" are per-file and overall summaries, used to check no row was lost.
 */
export function parseUblTsv(stdout: string): { findings: UblFinding[]; summaries: Map<string | null, { fatal: number; warnings: number }> } {
  const findings: UblFinding[] = [];
  const summaries = new Map<string | null, { fatal: number; warnings: number }>();
  for (const line of stdout.split(/\r?\n/)) {
    if (!line) continue;
    if (line.startsWith('ubl: ')) {
      const m = SUMMARY.exec(line);
      if (m) summaries.set(m[1] ?? null, { fatal: Number(m[2]), warnings: Number(m[3]) });
      continue;
    }
    const cols = line.split('\t');
    if (cols.length < 6) throw new Error(`unexpected line in validator output: ${line}`);
    const [file, flag, id, layers, location, ...message] = cols as [string, string, string, string, string, ...string[]];
    findings.push(
      ublFindingSchema.parse({
        file,
        flag: flag === 'fatal' ? 'fatal' : 'warning',
        id,
        layers: layers.split(',').filter(Boolean),
        location,
        message: message.join('\t'),
      }),
    );
  }
  return { findings, summaries };
}

function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    execFile(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') {
        reject(new Error(`validate.sh could not run: ${err.message}${stderr ? `\n${stderr}` : ''}`));
        return;
      }
      resolvePromise({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

/**
 * Validates the files in one call of validate.sh. Resolves with available: false (and why) when the
 * harness or Java is missing; rejects when the harness itself fails (usage or setup error, exit 2).
 */
export async function validateUblFiles(paths: string[], profile: UblProfile = 'strict', options: { timeoutMs?: number } = {}): Promise<UblValidationResult> {
  if (!(UBL_PROFILES as readonly string[]).includes(profile)) throw new Error(`unknown UBL validation profile: ${profile}`);
  if (paths.length === 0) throw new Error('validateUblFiles needs at least one file');
  for (const p of paths) {
    // Paths come back verbatim in TSV columns: one with a tab or newline could not be matched.
    if (/[\t\r\n]/.test(p)) throw new Error(`file path contains a tab or newline: ${JSON.stringify(p)}`);
  }
  const availability = ublValidatorAvailability();
  if (!availability.available) return { available: false, reason: availability.reason };

  const started = Date.now();
  // Through bash, so a checkout that lost the executable bit still works.
  const script = join(availability.dir, 'validate.sh');
  const { code, stdout, stderr } = await run('bash', [script, '--tsv', '--profile', profile, ...paths], options.timeoutMs ?? 180_000);
  if (code !== 0 && code !== 1) {
    throw new Error(`validate.sh exited with ${code}${stderr ? `:\n${stderr.trim()}` : ''}`);
  }
  const { findings, summaries } = parseUblTsv(stdout);
  const files: UblFileReport[] = paths.map((file) => ({
    file,
    fatal: findings.filter((f) => f.file === file && f.flag === 'fatal'),
    warnings: findings.filter((f) => f.file === file && f.flag === 'warning'),
  }));

  const unknown = findings.filter((f) => !paths.includes(f.file));
  if (unknown.length) throw new Error(`validator reported files it was not given: ${[...new Set(unknown.map((f) => f.file))].join(', ')}`);
  // The harness prints per-file summaries only for batches; a single file gets just the total.
  for (const r of files) {
    const s = summaries.get(paths.length > 1 ? r.file : null);
    if (!s) throw new Error(`validator output has no summary for ${r.file}:\n${stdout}\n${stderr}`);
    if (s.fatal !== r.fatal.length || s.warnings !== r.warnings.length) {
      throw new Error(`validator summary for ${r.file} (${s.fatal} fatal, ${s.warnings} warnings) does not match the parsed rows (${r.fatal.length}, ${r.warnings.length})`);
    }
  }

  return {
    available: true,
    profile,
    files,
    findings,
    fatalCount: findings.filter((f) => f.flag === 'fatal').length,
    warningCount: findings.filter((f) => f.flag === 'warning').length,
    durationMs: Date.now() - started,
  };
}

/** One line per finding, for test failure messages and logs. */
export function formatFindings(findings: UblFinding[]): string {
  return findings.map((f) => `${f.flag.toUpperCase()} ${f.id} [${f.layers.join(',')}] at ${f.location}: ${f.message}`).join('\n');
}
