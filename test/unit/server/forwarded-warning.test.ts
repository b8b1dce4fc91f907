import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { warnForwardedFromOutside } from '../../../src/server/http/forwarded-warning';

/**
 * With TRUST_PROXY set, forwarded headers straight from an address on the open internet
 * are said once in the log: such a peer is likely a client writing them itself.
 */
function appWith(trustedProxyHops: number) {
  const warnings: string[] = [];
  const app = new Hono();
  app.use(
    '*',
    warnForwardedFromOutside(trustedProxyHops, (message) => warnings.push(message)),
  );
  app.get('*', (c) => c.text('ok'));
  const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
    app.request('http://in/x', { headers }, { incoming: { socket: { remoteAddress } } });
  return { from, warnings };
}

const SPOOFED = { 'x-forwarded-for': '1.2.3.4' };

describe('forwarded headers from outside', () => {
  it('are said once, naming the peer, when TRUST_PROXY is set', async () => {
    const { from, warnings } = appWith(1);
    expect((await from('203.0.113.9', SPOOFED)).status).toBe(200);
    await from('198.51.100.7', { 'x-forwarded-host': 'evil.example' });
    expect(warnings).toEqual([expect.stringMatching(/TRUST_PROXY is 1.*203\.0\.113\.9/)]);
  });

  it('are not said from a proxy on this machine or a private network, nor without TRUST_PROXY', async () => {
    const trusted = appWith(1);
    for (const peer of [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '192.168.0.4',
      '::ffff:172.16.0.1',
      'fd00::1',
    ]) {
      await trusted.from(peer, SPOOFED);
    }
    await trusted.from('203.0.113.9');
    expect(trusted.warnings).toEqual([]);
    const direct = appWith(0);
    await direct.from('203.0.113.9', SPOOFED);
    expect(direct.warnings).toEqual([]);
  });
});
