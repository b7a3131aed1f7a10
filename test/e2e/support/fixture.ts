import { afterAll, afterEach } from 'vitest';
import { startDesktop, type Desktop } from './desktop';
import { captureFailure, setUpDevice } from './flows';
import { tempDataDir, type E2eServer } from './stack';

/**
 * The desktop every e2e file drives: a fresh data folder, the engine's reconnect probes made fast,
 * and the device set up against the e2e server's company. Closing it also removes the folder.
 */
export async function openDevice(server: E2eServer, probeDelayMs: { min: number; max: number } = { min: 200, max: 400 }): Promise<Desktop> {
  const dir = tempDataDir();
  let desktop: Desktop | undefined;
  try {
    desktop = await startDesktop({ apiUrl: server.base, dataDir: dir.dir, engine: { probeDelayMs } });
    await setUpDevice(desktop, server);
  } catch (error) {
    await desktop?.close();
    dir.remove();
    throw error;
  }
  const started = desktop;
  return {
    ...started,
    close: async () => {
      await started.close();
      dir.remove();
    },
  };
}

/**
 * The hooks that go with a file's stack: a picture of the screen when a test fails, and everything
 * closed at the end. `stack` is read when the hooks run, because beforeAll fills the file's variables.
 */
export function closeStackAfterAll(stack: () => { desktop?: Desktop; server?: E2eServer }): void {
  afterEach(async (context) => {
    await captureFailure(stack().desktop?.page, context);
  });
  afterAll(async () => {
    await stack().desktop?.close();
    await stack().server?.close();
  });
}
