import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { findFreePort } from '../infra/src/net';
import { createDemoWorld, startTestStack, type TestStack } from './support';

/**
 * Gateway replicas share no memory: each caches resolved tokens. A credential change made
 * through one replica must reach the others through oauth's events, well before their
 * cache would have expired on its own.
 */
let stack: TestStack;
let second: ChildProcess;
let secondUrl: string;

beforeAll(async () => {
  stack = await startTestStack({ env: { TOKEN_CACHE_SECONDS: '300' } });
  const port = await findFreePort();
  secondUrl = `http://127.0.0.1:${port}`;
  const grpc = (p: number) => `127.0.0.1:${p}`;
  second = spawn(
    process.execPath,
    [path.join(__dirname, '..', 'services', 'api-gateway', 'dist', 'main.js')],
    {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        ADMIN_TOKEN: stack.adminToken,
        COMMAND_REGISTRY_GRPC_URL: grpc(stack.ports.registry),
        PERMISSIONS_GRPC_URL: grpc(stack.ports.permissions),
        OAUTH_GRPC_URL: grpc(stack.ports.oauth),
        DISPATCHER_GRPC_URL: grpc(stack.ports.dispatcher),
        NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
        EVENTS_SUBJECT_PREFIX: stack.events.subjectPrefix,
        TOKEN_CACHE_SECONDS: '300',
        RATE_LIMIT_GLOBAL_PER_SECOND: '0',
        RATE_LIMIT_ROUTE_LIMIT: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 100; i++) {
    const ready = await fetch(`${secondUrl}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the second gateway did not become ready');
}, 120_000);

afterAll(async () => {
  second?.kill('SIGTERM');
  await stack?.stop();
});

it('a bot token reset through one replica stops the old token on the other within a second', async () => {
  const world = await createDemoWorld(stack.admin);
  const list = (base: string, token: string) =>
    fetch(`${base}/api/v10/applications/${world.application.id}/commands`, {
      headers: { Authorization: `Bot ${token}` },
    });
  expect((await list(secondUrl, world.application.botToken)).status).toBe(200); // cached there for 300 s

  const reset = await stack.admin('POST', `/admin/applications/${world.application.id}/bot/reset-token`);
  expect(reset.status).toBe(200);

  const deadline = Date.now() + 3000;
  let status = 200;
  let waited = 0;
  const started = Date.now();
  while (status === 200 && Date.now() < deadline) {
    status = (await list(secondUrl, world.application.botToken)).status;
    waited = Date.now() - started;
    if (status === 200) await new Promise((r) => setTimeout(r, 50));
  }
  expect(status).toBe(401);
  expect(waited).toBeLessThan(1000);
  expect((await list(secondUrl, reset.body.token)).status).toBe(200);
});
