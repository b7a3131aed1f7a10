import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, postWebhook } from '../../../server/modules/webhooks/sender';
import { startReceiver, type Receiver } from './receiver';

describe('webhook posts', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('tells private addresses from public ones', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2a00:1450:4001:800::200e', '::ffff:8.8.8.8']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('with private addresses blocked, refuses a name that resolves to loopback (checked after DNS), and posts to it otherwise', async () => {
    const port = new URL(receiver.url).port;
    // The machine's own name: a name (not a literal), which resolves to one of its private or loopback addresses.
    const name = hostname();
    expect(isPrivateAddress((await lookup(name)).address), `${name} resolves to a private address here`).toBe(true);
    const blocked = await postWebhook(`http://${name}:${port}/hooks`, '{}', {}, { timeoutMs: 2000, blockPrivateAddresses: true });
    expect(blocked.statusCode).toBeNull();
    expect(blocked.error).toMatch(/private address/);
    expect(receiver.received).toHaveLength(0);
    const allowed = await postWebhook(`http://localhost:${port}/hooks`, '{"a":1}', { 'x-test': '1' }, { timeoutMs: 2000, blockPrivateAddresses: false });
    expect(allowed).toEqual({ statusCode: 200, error: null });
    expect(receiver.received.map((r) => [r.body, r.headers['x-test']])).toEqual([['{"a":1}', '1']]);
  });

  it('refuses schemes other than http and https before connecting', async () => {
    for (const url of ['ftp://127.0.0.1/x', 'file:///etc/passwd', 'gopher://127.0.0.1:70/x']) {
      const res = await postWebhook(url, '{}', {}, { timeoutMs: 1000, blockPrivateAddresses: false });
      expect(res.statusCode, url).toBeNull();
      expect(res.error, url).toMatch(/refused/);
    }
  });
});
