import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { consolePolicy, mountConsole, webSocketOrigin } from '../../src/http/console-routes';

/**
 * The console's static files as api-gateway serves them: the page never cached, hashed
 * assets for a year, every answer under the console's policy, whose `connect-src` names
 * the gateway's WebSocket origin and nothing a misconfigured URL could smuggle in.
 */
let dir: string;
let server: Server;
let base: string;
const gatewayUrl = 'ws://127.0.0.1:8081';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'acs-console-build-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><script type="module" src="/console/assets/a.js"></script>',
  );
  writeFileSync(join(dir, 'assets', 'a.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', '.env'), 'SECRET=1');
  const app = express();
  expect(mountConsole(app, { dir, gatewayUrl: async () => gatewayUrl })).toBe(true);
  app.use((_req, res) => res.status(404).json({ code: 0, message: '404: Not Found' }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('the console routes', () => {
  it('serve the page uncached under the policy, its connect-src the gateway origin', async () => {
    const response = await fetch(`${base}/console/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('content-security-policy')).toBe(consolePolicy('ws://127.0.0.1:8081'));
    expect(await response.text()).toContain('/console/assets/a.js');
  });

  it('redirect /console to /console/ once, and serve hashed assets for a year', async () => {
    const bare = await fetch(`${base}/console`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/console/');
    const asset = await fetch(`${base}/console/assets/a.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('answer 404 for files outside the build and dot-files', async () => {
    for (const path of [
      '/console/assets/../index.html.bak',
      '/console/assets/%2e%2e/%2e%2e/etc/passwd',
      '/console/other',
    ]) {
      expect((await fetch(`${base}${path}`)).status).toBe(404);
    }
  });

  it('build a policy without inline script, eval or foreign origins', () => {
    const policy = consolePolicy('wss://gateway.example');
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("connect-src 'self' wss://gateway.example");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe-(inline|eval)|\*/);
    expect(consolePolicy(undefined)).toContain("connect-src 'self';");
  });

  it('take only a ws: or wss: origin from the gateway URL', () => {
    expect(webSocketOrigin('ws://127.0.0.1:8081/?v=10')).toBe('ws://127.0.0.1:8081');
    expect(webSocketOrigin('wss://gw.example/replica/1')).toBe('wss://gw.example');
    expect(webSocketOrigin("https://evil.example; script-src 'unsafe-inline'")).toBeUndefined();
    expect(webSocketOrigin('javascript:alert(1)')).toBeUndefined();
    expect(webSocketOrigin('')).toBeUndefined();
  });
});
