/**
 * The sync engine alone in a child process, over a data folder, until the outbox is empty. The crash
 * test kills it with SIGKILL at random points and starts it again. It prints one line per outbox item
 * sent (`item <kind>`) so the parent can time its kills inside the sync, and `done` at the end.
 *
 * Usage: node --import tsx sync-child.ts <dataDir> <apiBase>
 */
import { createMainServices } from '../../../main/app/services';
import { FileSecretStore } from '../../../main/secrets/file-store';

const [dataDir, apiBase] = process.argv.slice(2);
if (!dataDir || !apiBase) {
  console.error('usage: sync-child <dataDir> <apiBase>');
  process.exit(2);
}

const services = createMainServices({
  dataDir,
  defaultApiUrl: apiBase,
  secrets: new FileSecretStore(dataDir),
  host: { kind: 'web' },
  timers: false,
  synchronous: 'FULL',
  api: { timeoutMs: 3000, retry: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 200 } },
  pacer: { createsPerMinute: 1_000_000 },
  emit: (event, payload) => {
    if (event === 'sync.progress' && (payload as { phase: string }).phase === 'push') process.stdout.write('item\n');
  },
});

async function main(): Promise<void> {
  process.stdout.write(`ready recovered=${services.recoveredAtStart}\n`);
  for (let pass = 0; pass < 50; pass++) {
    await services.engine.runPass('full');
    const status = services.engine.status();
    if (status.outbox.pending === 0 && status.outbox.in_flight === 0) {
      process.stdout.write(`done failed=${status.outbox.failed}\n`);
      await services.close();
      return;
    }
    // Items waiting for their backoff: wait a little and go again.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  process.stdout.write('gave-up\n');
  await services.close();
  process.exit(1);
}

void main();
