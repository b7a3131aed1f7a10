import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app';
import type { Dialect } from '../../server/db/types';
import { createApiKey, type CreateKeyInput, type CreatedKey } from '../../server/platform/api-keys';
import { fixedClock } from '../../server/platform/clock';
import { cuiControlDigit } from '../../shared/ro/cui';
import { createTestStorage, type TestStorage } from './storage';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface TestServer {
  app: FastifyInstance;
  url: string;
  base: string;
  dialect: Dialect;
  storage: TestStorage['storage'];
  /** For child processes (the CLI, a second server): the env that reaches the same database. */
  env: Record<string, string>;
  clock: ReturnType<typeof fixedClock>;
  /** A new key (and company/work point when new); defaults to a fresh company each call. */
  key(input?: Partial<Omit<CreateKeyInput, 'now'>>): Promise<CreatedKey>;
  /** fetch against /v1 with the key as Bearer; JSON bodies are serialized. */
  api(key: string | null, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiReply>;
  close(): Promise<void>;
}

export interface ApiReply {
  status: number;
  headers: Headers;
  // Replies are checked by each test against what it expects; their shape varies by route.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test convenience over arbitrary JSON
  body: any;
  text: string;
}

/** A CUI with a correct control digit, different each call: test companies never collide. */
export function randomCui(): string {
  const body = String(1_000_000 + Math.floor(Math.random() * 8_999_999));
  return `${body}${cuiControlDigit(body)}`;
}

/** One call to a service at `base` (…/v1): Bearer key, JSON body unless a string is given. */
export async function callApi(
  base: string,
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiReply> {
  const h: Record<string, string> = { ...headers };
  const init: RequestInit = { method, headers: h };
  if (key) h.authorization = `Bearer ${key}`;
  if (body !== undefined) {
    h['content-type'] ??= 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  // An error message still carrying a `{placeholder}` was rendered without its value: a server bug,
  // caught here for every reply of every test rather than in one test per message.
  const message = (parsed as { error?: { message?: unknown } } | null)?.error?.message;
  if (typeof message === 'string' && /\{\w+\}/.test(message)) {
    throw new Error(`${method} ${path}: error message with an unfilled placeholder: ${message}`);
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export interface TestServerOptions extends Partial<AppOptions> {
  /** Loopback address to listen on: `127.0.0.1` (default) or `::1`. */
  host?: string;
}

/** The real service on loopback, over a fresh database, with a clock the test can move. */
export async function startTestServer(dialect: Dialect, options: TestServerOptions = {}): Promise<TestServer> {
  const { host = '127.0.0.1', ...appOptions } = options;
  const testStorage = await createTestStorage(dialect);
  const clock = fixedClock(Math.floor(Date.parse('2026-11-21T10:00:00Z') / 1000));
  const { app } = buildApp({ storage: testStorage.storage, clock, ...appOptions });
  try {
    await app.listen({ port: 0, host });
  } catch (error) {
    await testStorage.drop();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const base = `${url}/v1`;
  return {
    app,
    url,
    base,
    dialect,
    storage: testStorage.storage,
    env: testStorage.env,
    clock,
    key: (input = {}) =>
      createApiKey(testStorage.storage.db, {
        companyName: input.companyName ?? `Test SRL ${Math.random().toString(36).slice(2, 8)}`,
        cui: input.cui ?? randomCui(),
        ...input,
        now: clock.now(),
      }),
    api: (key, method, path, body, headers) => callApi(base, key, method, path, body, headers),
    close: async () => {
      await app.close();
      await testStorage.drop();
    },
  };
}

export interface ChildServer {
  child: ChildProcess;
  url: string;
  base: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * What `npm run server` runs: the service's entry under Node with tsx's loader, one process (the
 * `tsx` command would put a second one in between, which a SIGKILL of a failed test's cleanup would
 * leave orphaned, still serving).
 */
const SERVICE_COMMAND = [process.execPath, '--import', 'tsx', 'server/cli.ts'] as const;

/**
 * The service (see SERVICE_COMMAND) as a child process on PORT=0, resolved once it printed
 * `listening on <url>`. The parent's env is not inherited beyond PATH and HOME, so a test states
 * every setting the server sees.
 */
export async function spawnServer(env: Record<string, string>, args: string[] = [], timeoutMs = 20_000): Promise<ChildServer> {
  const [node, ...nodeArgs] = SERVICE_COMMAND;
  return spawnServerCommand(node, [...nodeArgs, ...args], env, { timeoutMs });
}

/**
 * Like {@link spawnServer}, with the command that starts it (`npm run server`, say). `detached` makes
 * the child lead a process group of its own, which a test may then signal as a whole.
 */
export async function spawnServerCommand(
  command: string,
  commandArgs: string[],
  env: Record<string, string>,
  { timeoutMs = 20_000, detached = false }: { timeoutMs?: number; detached?: boolean } = {},
): Promise<ChildServer> {
  const child = spawn(command, commandArgs, {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const poll = setInterval(() => {
      const m = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (m) {
        clearInterval(poll);
        resolve(m[1]!);
      } else if (child.exitCode !== null || Date.now() > deadline) {
        clearInterval(poll);
        if (child.exitCode === null) child.kill('SIGKILL');
        reject(new Error(`server did not start (exit ${String(child.exitCode)}):\n${out}\n${err}`));
      }
    }, 20);
  });
  return {
    child,
    url,
    base: `${url}/v1`,
    stdout: () => out,
    stderr: () => err,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the service CLI (SERVICE_COMMAND with `<args>`) to its end. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<CliResult> {
  const [node, ...nodeArgs] = SERVICE_COMMAND;
  return runCommand(node, [...nodeArgs, ...args], env, timeoutMs);
}

export function runCommand(command: string, args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
