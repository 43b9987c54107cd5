import { randomBytes } from 'node:crypto';
import { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { createDemoWorld, startTestStack, type TestStack } from './support';

/** Discord's rate-limit contract: headers on every answer, 429s that real clients understand. */
let stack: TestStack;
let world: Awaited<ReturnType<typeof createDemoWorld>>;

beforeAll(async () => {
  stack = await startTestStack({
    env: {
      RATE_LIMIT_GLOBAL_PER_SECOND: '50',
      RATE_LIMIT_ROUTE_LIMIT: '5',
      RATE_LIMIT_ROUTE_WINDOW_SECONDS: '2',
    },
  });
  world = await createDemoWorld(stack.admin);
});

afterAll(async () => stack?.stop());

const list = (token: string, guildId?: string) =>
  fetch(
    `${stack.apiUrl}/api/v10/applications/${world.application.id}${guildId ? `/guilds/${guildId}` : ''}/commands`,
    { headers: { Authorization: `Bot ${token}` } },
  );

describe('rate limits', () => {
  it('send the bucket headers on every answer and a 429 that discord.py and discord.js accept', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await list(world.application.botToken));
    const first = answers[0]!;
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('5');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(Number(first.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(0);
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(first.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);

    const limited = answers[5]!;
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toBe('application/json');
    expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
    expect(limited.headers.get('via')).toBeTruthy();
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await limited.json()) as { message: string; retry_after: number; global: boolean };
    expect(body).toEqual({
      message: 'You are being rate limited.',
      retry_after: expect.any(Number),
      global: false,
    });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(2);
  });

  it('counts a guild’s bucket apart from the global one (top-level resources partition buckets)', async () => {
    const guild = await list(world.application.botToken, world.guild.id);
    expect(guild.status).toBe(200);
    expect(guild.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('counts every spelling of one token (prefix case, spaces) in one bucket', async () => {
    const token = world.application.botToken;
    const spellings = [
      `Bot ${token}`,
      `bot ${token}`,
      `BOT ${token}`,
      `Bot  ${token}`,
      `bOt ${token}`,
      `bot   ${token}`,
    ];
    // A route no other test calls, so that the bucket is new; each spelling is a valid login.
    const answers = [];
    for (const authorization of spellings) {
      answers.push(await fetch(`${stack.apiUrl}/api/v10/users/@me`, { headers: { authorization } }));
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual([
      '4',
      '3',
      '2',
      '1',
      '0',
      '0',
    ]);
  });

  it('answers the 51st request of a second with a global 429', async () => {
    const token = (await stack.admin('POST', `/admin/applications/${world.application.id}/bot/reset-token`))
      .body.token as string;
    // Sixty guilds a round, so that no route bucket fills: only the global limit can refuse.
    // On a busy machine one round of sixty may spread over more than the one-second window;
    // then the next round (fresh guilds) tries again, up to five rounds.
    let global: Response[] = [];
    for (let round = 0; round < 5 && global.length === 0; round++) {
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          list(token, String(1300000000000000000n + BigInt(round * 60 + i))),
        ),
      );
      global = answers.filter((a) => a.status === 429);
    }
    expect(global.length).toBeGreaterThanOrEqual(1);
    expect(global[0]!.headers.get('x-ratelimit-global')).toBe('true');
    expect(global[0]!.headers.get('x-ratelimit-scope')).toBe('global');
    expect(await global[0]!.json()).toMatchObject({ global: true });
    world.application.botToken = token;
  });

  it('counts a client rotating made-up tokens by its address, not per token', async () => {
    // The bot spent its global second in the test before: that window ends first, so that
    // the bot's 200 below shows its buckets untouched by the burst, however fast it ran.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // 70 requests in a burst, each with a new random token: at most 50 a second get through.
    const answers = await Promise.all(
      Array.from({ length: 70 }, () =>
        fetch(`${stack.apiUrl}/api/v10/users/@me`, {
          headers: { Authorization: `Bot ${randomBytes(24).toString('base64url')}` },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(20);
    expect(statuses.filter((status) => status !== 429 && status !== 401)).toEqual([]);
    // The bot's own buckets are untouched by them (a route no other test calls).
    const bot = await fetch(`${stack.apiUrl}/api/v10/gateway/bot`, {
      headers: { Authorization: `Bot ${world.application.botToken}` },
    });
    expect(bot.status).toBe(200);
  });

  it('is waited out by @discordjs/rest, which then succeeds', async () => {
    const rest = new REST({ api: `${stack.apiUrl}/api`, version: '10' }).setToken(world.application.botToken);
    const started = Date.now();
    for (let i = 0; i < 7; i++) await rest.get(Routes.applicationCommands(world.application.id));
    // Seven requests through a 5-per-2 s bucket must have waited for at least one reset.
    expect(Date.now() - started).toBeGreaterThan(500);
  });
});

/**
 * Discord's invalid-request limit, low enough to reach: a stack of its own, since the tests
 * above answer 429s on purpose. The stack trusts X-Forwarded-For from this machine
 * (TRUST_PROXY=loopback, as behind a proxy), so each test names its own client address.
 */
describe('invalid-request limit', () => {
  let limited: TestStack;
  let applicationId: string;
  let botToken: string;

  beforeAll(async () => {
    limited = await startTestStack({
      env: { INVALID_REQUEST_LIMIT: '5', INVALID_REQUEST_WINDOW_SECONDS: '3', TRUST_PROXY: 'loopback' },
    });
    ({ id: applicationId, botToken } = (await createDemoWorld(limited.admin)).application);
  });

  afterAll(async () => limited?.stop());

  const me = (client: string, authorization: string) =>
    fetch(`${limited.apiUrl}/api/v10/users/@me`, { headers: { authorization, 'X-Forwarded-For': client } });
  // A client rotating random tokens: each is a new credential to the rate limits.
  const randomToken = () => `Bot ${randomBytes(24).toString('base64url')}`;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('refuses an address that piled up invalid requests, a valid token too, until the window rolls', async () => {
    const invalid = [];
    for (let i = 0; i < 5; i++) invalid.push((await me('198.51.100.10', randomToken())).status);
    expect(invalid).toEqual([401, 401, 401, 401, 401]);

    const blocked = await me('198.51.100.10', `Bot ${botToken}`);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('content-type')).toBe('application/json');
    expect(blocked.headers.get('x-ratelimit-global')).toBe('true');
    expect(blocked.headers.get('x-ratelimit-scope')).toBe('global');
    expect(blocked.headers.get('via')).toBeTruthy();
    const retryAfterHeader = Number(blocked.headers.get('retry-after'));
    expect(retryAfterHeader).toBeGreaterThanOrEqual(1);
    expect(retryAfterHeader).toBeLessThanOrEqual(3);
    const body = (await blocked.json()) as { message: string; retry_after: number; global: boolean };
    expect(body).toEqual({
      message: 'You are being rate limited.',
      retry_after: expect.any(Number),
      global: true,
    });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(3);
    expect(body.retry_after).toBeLessThanOrEqual(retryAfterHeader);

    // The same token from another address is served: the block is the address's.
    expect((await me('198.51.100.11', `Bot ${botToken}`)).status).toBe(200);
    // The health probes are never refused.
    expect(
      (await fetch(`${limited.apiUrl}/healthz`, { headers: { 'X-Forwarded-For': '198.51.100.10' } })).status,
    ).toBe(200);

    await sleep(body.retry_after * 1000);
    expect((await me('198.51.100.10', `Bot ${botToken}`)).status).toBe(200);
  });

  it('is never reached by valid traffic alone, nor by unknown routes', async () => {
    const statuses = [];
    for (let i = 0; i < 20; i++) {
      statuses.push((await me('198.51.100.12', `Bot ${botToken}`)).status);
      const unknownRoute = await fetch(`${limited.apiUrl}/api/v10/nowhere/${i}`, {
        headers: { authorization: `Bot ${botToken}`, 'X-Forwarded-For': '198.51.100.12' },
      });
      statuses.push(unknownRoute.status);
    }
    expect(new Set(statuses)).toEqual(new Set([200, 404]));
    expect((await me('198.51.100.12', `Bot ${botToken}`)).status).toBe(200);
  });

  it('is waited out by @discordjs/rest, which then succeeds', async () => {
    for (let i = 0; i < 5; i++) expect((await me('198.51.100.13', randomToken())).status).toBe(401);
    expect((await me('198.51.100.13', `Bot ${botToken}`)).status).toBe(429);

    const rest = new REST({
      api: `${limited.apiUrl}/api`,
      version: '10',
      headers: { 'X-Forwarded-For': '198.51.100.13' },
    }).setToken(botToken);
    const started = Date.now();
    expect(await rest.get(Routes.applicationCommands(applicationId))).toEqual(expect.any(Array));
    // It held the request for the rest of the window instead of failing.
    expect(Date.now() - started).toBeGreaterThan(500);
  });
});
