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
}, 120_000);

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
    // Sixty guilds, so that no route bucket fills: only the global limit can refuse.
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => list(token, String(1300000000000000000n + BigInt(i)))),
    );
    const global = answers.filter((a) => a.status === 429);
    expect(global.length).toBeGreaterThanOrEqual(1);
    expect(global[0]!.headers.get('x-ratelimit-global')).toBe('true');
    expect(global[0]!.headers.get('x-ratelimit-scope')).toBe('global');
    expect(await global[0]!.json()).toMatchObject({ global: true });
    world.application.botToken = token;
  });

  it('is waited out by @discordjs/rest, which then succeeds', async () => {
    const rest = new REST({ api: `${stack.apiUrl}/api`, version: '10' }).setToken(world.application.botToken);
    const started = Date.now();
    for (let i = 0; i < 7; i++) await rest.get(Routes.applicationCommands(world.application.id));
    // Seven requests through a 5-per-2 s bucket must have waited for at least one reset.
    expect(Date.now() - started).toBeGreaterThan(500);
  });
});
