import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { createApplication, createDemoWorld, createUser, startTestStack, type TestStack } from './support';

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
  second = spawn(
    process.execPath,
    [path.join(__dirname, '..', 'services', 'api-gateway', 'dist', 'main.js')],
    {
      env: {
        ...process.env,
        // Port 0: it binds a port of the OS's choosing and reports it (an IPC message).
        PORT: '0',
        HOST: '127.0.0.1',
        ADMIN_TOKEN: stack.adminToken,
        COMMAND_REGISTRY_GRPC_URL: stack.grpcTargets.registry,
        PERMISSIONS_GRPC_URL: stack.grpcTargets.permissions,
        OAUTH_GRPC_URL: stack.grpcTargets.oauth,
        DISPATCHER_GRPC_URL: stack.grpcTargets.dispatcher,
        INTERACTIONS_GRPC_URL: stack.grpcTargets.interactions,
        NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
        EVENTS_STREAM: stack.events.stream,
        EVENTS_SUBJECT_PREFIX: stack.events.subjectPrefix,
        TOKEN_CACHE_SECONDS: '300',
        RATE_LIMIT_GLOBAL_PER_SECOND: '0',
        RATE_LIMIT_ROUTE_LIMIT: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    },
  );
  secondUrl = `http://127.0.0.1:${await reportedPort(second)}`;
  // Listening; its backends already serve (the stack is ready): /readyz only waits for its channels.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const ready = await fetch(`${secondUrl}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the second gateway listens but its /readyz did not answer 200 within 60 s');
});

/** The HTTP port a service reports once it listens (service-kit's reportListening); rejects if it exits first. */
function reportedPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.on('message', (message: { type?: string; listeners?: { http?: number } }) => {
      if (message.type === 'acs.listening' && message.listeners?.http) resolve(message.listeners.http);
    });
    child.once('exit', (code, signal) => reject(new Error(`the second gateway exited (${code ?? signal})`)));
  });
}

afterAll(async () => {
  second?.kill('SIGTERM');
  await stack?.stop();
});

/**
 * How soon the other replica must drop a cached credential: events take milliseconds, but
 * a busy machine can delay them by a second or more; the caches would keep it 60 s (Bearer)
 * or 300 s (bot), so this still tells the event from the expiry.
 */
const PROPAGATION_MS = 10_000;

/** Polls `call` until it is refused (401), for at most PROPAGATION_MS: the last status and how long it took. */
async function untilRefused(call: () => Promise<Response>): Promise<{ status: number; waited: number }> {
  const started = Date.now();
  let status = (await call()).status;
  while (status === 200 && Date.now() - started < PROPAGATION_MS) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await call()).status;
  }
  return { status, waited: Date.now() - started };
}

it('a bot token reset through one replica stops the old token on the other within seconds', async () => {
  const world = await createDemoWorld(stack.admin);
  const list = (base: string, token: string) =>
    fetch(`${base}/api/v10/applications/${world.application.id}/commands`, {
      headers: { Authorization: `Bot ${token}` },
    });
  expect((await list(secondUrl, world.application.botToken)).status).toBe(200); // cached there for 300 s

  const reset = await stack.admin('POST', `/admin/applications/${world.application.id}/bot/reset-token`);
  expect(reset.status).toBe(200);

  const { status, waited } = await untilRefused(() => list(secondUrl, world.application.botToken));
  expect(status).toBe(401);
  expect(waited).toBeLessThan(PROPAGATION_MS);
  expect((await list(secondUrl, reset.body.token)).status).toBe(200);
});

it('client-credentials tokens revoked through one replica stop on the other within seconds', async () => {
  const first = await createUser(stack, { username: 'first-owner' });
  const next = await createUser(stack, { username: 'next-owner' });
  const app = await createApplication(stack, { name: 'Sold', owner_id: first.id });
  const basic = `Basic ${Buffer.from(`${app.id}:${app.client_secret}`).toString('base64')}`;
  const issue = async () => {
    const answer = await fetch(`${stack.apiUrl}/api/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic },
      body: 'grant_type=client_credentials&scope=identify',
    });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { access_token: string }).access_token;
  };
  const me = (token: string) =>
    fetch(`${secondUrl}/api/v10/users/@me`, { headers: { Authorization: `Bearer ${token}` } });

  // A new owner: the old owner's token is revoked (it acted as them).
  const old = await issue();
  const seen = await me(old); // cached there for up to 60 s
  expect([seen.status, ((await seen.json()) as { id: string }).id]).toEqual([200, first.id]);
  expect((await stack.admin('PATCH', `/admin/applications/${app.id}`, { owner_id: next.id })).status).toBe(
    200,
  );
  const afterOwnerChange = await untilRefused(() => me(old));
  expect(afterOwnerChange.status).toBe(401);
  expect(afterOwnerChange.waited).toBeLessThan(PROPAGATION_MS);

  // RFC 7009 revocation of a client-credentials token (no user's deauthorization).
  const current = await issue();
  expect((await me(current)).status).toBe(200);
  const revoked = await fetch(`${stack.apiUrl}/api/v10/oauth2/token/revoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic },
    body: new URLSearchParams({ token: current }).toString(),
  });
  expect(revoked.status).toBe(200);
  const afterRevocation = await untilRefused(() => me(current));
  expect(afterRevocation.status).toBe(401);
  expect(afterRevocation.waited).toBeLessThan(PROPAGATION_MS);
});
