import { createApplication, createDemoWorld, createUser, startTestStack, type TestStack } from './support';
import { createAdminClient } from '../infra/src/admin-client';

/**
 * Gateway replicas share no memory: each caches resolved tokens. A credential change made
 * through one replica must reach the others through oauth's events, well before their
 * cache would have expired on its own. Two replicas as `npm start -- --replicas 2` runs
 * them, each called on its own port (not through the entry point, which takes turns).
 */
let stack: TestStack;
let firstUrl: string;
let secondUrl: string;

beforeAll(async () => {
  stack = await startTestStack({ replicas: 2, env: { TOKEN_CACHE_SECONDS: '300' } });
  [firstUrl, secondUrl] = stack.replicaApiUrls as [string, string];
});

afterAll(async () => {
  await stack?.stop();
});

/** The admin API of the first replica alone. */
const adminOfFirst = (method: string, path: string, body?: unknown) =>
  createAdminClient(firstUrl, stack.adminToken)(method, path, body);

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

  const reset = await adminOfFirst('POST', `/admin/applications/${world.application.id}/bot/reset-token`);
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
    const answer = await fetch(`${firstUrl}/api/v10/oauth2/token`, {
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
  expect((await adminOfFirst('PATCH', `/admin/applications/${app.id}`, { owner_id: next.id })).status).toBe(
    200,
  );
  const afterOwnerChange = await untilRefused(() => me(old));
  expect(afterOwnerChange.status).toBe(401);
  expect(afterOwnerChange.waited).toBeLessThan(PROPAGATION_MS);

  // RFC 7009 revocation of a client-credentials token (no user's deauthorization).
  const current = await issue();
  expect((await me(current)).status).toBe(200);
  const revoked = await fetch(`${firstUrl}/api/v10/oauth2/token/revoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic },
    body: new URLSearchParams({ token: current }).toString(),
  });
  expect(revoked.status).toBe(200);
  const afterRevocation = await untilRefused(() => me(current));
  expect(afterRevocation.status).toBe(401);
  expect(afterRevocation.waited).toBeLessThan(PROPAGATION_MS);
});
