import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP receiver on loopback, started by the test: it records every request and answers what
 * `reply` says (a status, or `hang` to never answer).
 */
export interface Receiver {
  url: string;
  received: Received[];
  /** What the next requests get: a status, or 'hang' (no reply). */
  reply: number | 'hang';
  /** Extra headers of the reply (a redirect's Location). */
  replyHeaders: Record<string, string>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const state: Pick<Receiver, 'received' | 'reply' | 'replyHeaders'> = { received: [], reply: 200, replyHeaders: {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (state.reply === 'hang') return;
      res.writeHead(state.reply, state.replyHeaders);
      res.end(state.reply >= 400 ? 'receiver says no' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as Receiver;
}
