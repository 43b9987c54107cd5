import { createDemoWorld, scrapeMetrics, startTestStack, type DemoWorld, type TestStack } from './support';

/**
 * `npm start -- --replicas 2` runs two of every service. Each backend's replicas listen on
 * TCP ports of their own and their peers get one target listing both
 * (`ipv4:127.0.0.1:a,127.0.0.1:b`), which grpc-js balances with round_robin
 * (service-kit's CLIENT_CHANNEL_OPTIONS): calls spread over both, and a replica that is
 * down does not fail calls while the other is up.
 */
let stack: TestStack;
let world: DemoWorld;

beforeAll(async () => {
  stack = await startTestStack({
    replicas: 2,
    // The gateway asks oauth for the bot token's owner on every request.
    env: { ACS_METRICS: '1', TOKEN_CACHE_SECONDS: '0' },
  });
  world = await createDemoWorld(stack);
}, 240_000);

afterAll(async () => stack?.stop());

/** The guild's commands: api-gateway → command-registry → oauth (is the application installed there?). */
const guildCommands = async (): Promise<number> => {
  const response = await fetch(
    `${stack.apiUrl}/api/v10/applications/${world.application.id}/guilds/${world.guild.id}/commands`,
    { headers: { Authorization: `Bot ${world.application.botToken}` } },
  );
  await response.arrayBuffer();
  return response.status;
};

/** Calls a process has served, every RPC summed (its `rpc_server_duration_count` samples). */
async function callsServed(name: string): Promise<number> {
  const text = await scrapeMetrics(stack, name);
  return text
    .split('\n')
    .filter((line) => line.startsWith('rpc_server_duration_count'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

const processOf = (name: string) => {
  const found = stack.processes.find((p) => p.name === name);
  if (!found) throw new Error(`no process ${name}`);
  return found;
};

/** Sends `count` requests one after the other; `during(i)` runs before the i-th. */
async function sequence(count: number, during: (index: number) => Promise<void> = async () => undefined) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    await during(i);
    statuses.push(await guildCommands());
  }
  return statuses;
}

it('runs two of every service, each backend reached through one target listing both replicas', () => {
  const names = stack.processes.map((p) => p.name).sort();
  for (const service of ['command-registry', 'oauth', 'permissions', 'interactions', 'lobby', 'dispatcher']) {
    expect(names).toEqual(expect.arrayContaining([`${service}#1`, `${service}#2`]));
  }
  for (const name of ['registry', 'oauth', 'permissions', 'interactions', 'lobby'] as const) {
    expect(stack.grpcTargets[name]).toMatch(/^ipv4:127\.0\.0\.1:\d+,127\.0\.0\.1:\d+$/);
  }
  // api-gateway i calls dispatcher i, on its own socket.
  expect(stack.grpcTargets.dispatcher).toMatch(/^unix:/);
});

it('spreads the calls of every client over both replicas of each backend', async () => {
  const before = Object.fromEntries(
    await Promise.all(
      ['command-registry#1', 'command-registry#2', 'oauth#1', 'oauth#2'].map(
        async (name) => [name, await callsServed(name)] as const,
      ),
    ),
  );
  expect(await sequence(40)).toEqual(Array(40).fill(200));
  const served: Record<string, number> = {};
  for (const [name, count] of Object.entries(before)) served[name] = (await callsServed(name)) - count;
  // About half each: 40 requests make 40 registry calls and over 40 oauth calls.
  for (const name of Object.keys(before)) expect([name, served[name]! >= 10]).toEqual([name, true]);
});

it('fails no call while one replica of a backend stops, and sends it calls again once it is back', async () => {
  // A graceful stop (SIGTERM: the replica drains, then exits) amid the requests.
  const stopped = sequence(30, async (i) => {
    if (i === 10) void processOf('oauth#1').stop();
  });
  expect(await stopped).toEqual(Array(30).fill(200));
  await processOf('oauth#1').exited;
  // While it is down, every call goes to the other.
  expect(await sequence(20)).toEqual(Array(20).fill(200));

  await stack.restart('oauth#1');
  // Back on the port it had: the clients reconnect (after their backoff) and use it again.
  const served = await callsServed('oauth#1');
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && (await callsServed('oauth#1')) === served) {
    expect(await guildCommands()).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(await callsServed('oauth#1')).toBeGreaterThan(served);
});

it('fails at most the calls in flight when a replica is killed, and none after', async () => {
  const killed = processOf('command-registry#2');
  const before = await sequence(20, async (i) => {
    if (i === 10) killed.child.kill('SIGKILL');
  });
  await killed.exited;
  // A call on the killed replica's connection at that instant fails in transport (503, never 500).
  expect(before.filter((status) => status !== 200)).toEqual(
    before.filter((status) => status === 503).slice(0, 2),
  );
  expect(await sequence(30)).toEqual(Array(30).fill(200));
  await stack.restart('command-registry#2');
  expect(await sequence(10)).toEqual(Array(10).fill(200));
});
