import { createDemoWorld, startTestStack, type DemoWorld, type TestStack } from './support';

/**
 * An outage one hop away from the edge: the gateway reaches command-registry, which needs
 * oauth (is the app installed in the guild?). With oauth down the edge answers 503, and
 * with oauth frozen 504 within the request's budget, both with Discord's error body,
 * never 500; once oauth is back, the same request succeeds.
 */
let stack: TestStack;
let world: DemoWorld;

beforeAll(async () => {
  stack = await startTestStack({
    // The gateway trusts a resolved bot token for a minute, so requests reach the registry
    // while oauth is away; each request's calls get 3 s in all.
    env: { TOKEN_CACHE_SECONDS: '300', REQUEST_DEADLINE_MS: '3000' },
  });
  world = await createDemoWorld(stack);
}, 120_000);

afterAll(async () => stack?.stop());

const guildCommands = () =>
  fetch(`${stack.apiUrl}/api/v10/applications/${world.application.id}/guilds/${world.guild.id}/commands`, {
    headers: { Authorization: `Bot ${world.application.botToken}` },
  });
/** oauth's processes: `oauth`, or each replica (`oauth#1`…) under ACS_TEST_REPLICAS. */
const oauth = () => stack.processes.filter((p) => p.name.replace(/#\d+$/, '') === 'oauth');

async function untilOk(timeoutMs: number): Promise<number[]> {
  const statuses: number[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    statuses.push((await guildCommands()).status);
    if (statuses.at(-1) === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return statuses;
}

it('answers 503 while a peer of command-registry is down, and serves again once it is back', async () => {
  expect((await guildCommands()).status).toBe(200);
  await Promise.all(oauth().map((p) => p.stop()));

  const down = await guildCommands();
  expect(down.status).toBe(503);
  expect(down.headers.get('content-type')).toBe('application/json');
  expect(await down.json()).toEqual({ code: 0, message: '503: Service Unavailable' });
  // What needs no oauth keeps working (global commands are not checked against installs).
  const global = await fetch(`${stack.apiUrl}/api/v10/applications/${world.application.id}/commands`, {
    headers: { Authorization: `Bot ${world.application.botToken}` },
  });
  expect(global.status).toBe(200);

  await stack.restart('oauth');
  const after = await untilOk(60_000);
  expect(after.at(-1)).toBe(200);
  expect(after.filter((status) => status !== 200 && status !== 503)).toEqual([]);
});

it('answers 504 within the request’s budget while a peer of command-registry does not answer', async () => {
  expect((await guildCommands()).status).toBe(200);
  const frozen = oauth();
  for (const p of frozen) p.child.kill('SIGSTOP');
  try {
    const before = Date.now();
    const stalled = await guildCommands();
    const took = Date.now() - before;
    expect(stalled.status).toBe(504);
    expect(await stalled.json()).toEqual({ code: 0, message: '504: Gateway Timeout' });
    // The registry's call inherited what was left of the gateway's 3 s, not a fresh 5 s.
    expect(took).toBeGreaterThanOrEqual(2_500);
    expect(took).toBeLessThan(4_500);
  } finally {
    for (const p of frozen) p.child.kill('SIGCONT');
  }
  expect((await untilOk(30_000)).at(-1)).toBe(200);
});
