import {
  createApplication,
  createDemoWorld,
  createUser,
  spawnGateway,
  startTestStack,
  type GatewayReplica,
  type TestStack,
} from './support';

/**
 * Gateway replicas share no memory: each caches resolved tokens. A credential change made
 * through one replica must reach the others through oauth's events, well before their
 * cache would have expired on its own.
 */
let stack: TestStack;
let second: GatewayReplica;
let secondUrl: string;

beforeAll(async () => {
  stack = await startTestStack({ env: { TOKEN_CACHE_SECONDS: '300' } });
  second = await spawnGateway(stack, {
    TOKEN_CACHE_SECONDS: '300',
    RATE_LIMIT_GLOBAL_PER_SECOND: '0',
    RATE_LIMIT_ROUTE_LIMIT: '0',
  });
  secondUrl = second.url;
});

afterAll(async () => {
  await second?.stop();
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
