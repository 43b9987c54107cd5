import type { Client } from 'discord.js';
import { startTestStack, type TestStack } from '../../../test/support';
import { connectAcs, type World } from '../src';
import { withTranscript } from '../src/jest';
import { startDiceBot } from './fixtures/dice-bot';

/**
 * The kit's test controls against a real discord.js bot: faults injected with
 * `world.injectFault` fail the bot's calls, which discord.js retries; `world.requests()`
 * and the transcript tell every call with its status, fault and warnings, no token (the
 * interaction callback's included). An app with no endpoint and no bot connected fails
 * saying so.
 */
let stack: TestStack;
let world: World;
let bot: Client<true> | undefined;

beforeAll(async () => {
  stack = await startTestStack();
  const acs = await connectAcs({ url: stack.apiUrl, adminToken: stack.adminToken });
  world = await acs.createWorld({ users: ['alice'], channels: ['general'] });
  bot = await startDiceBot(stack.apiUrl, world.app.botToken, world.guild.id);
});

afterAll(async () => {
  await bot?.destroy();
  await world?.destroy();
  await stack?.stop();
});

it(
  'a deferred reply still arrives when its edit is rate limited once and its follow-up fails with 500',
  withTranscript(
    () => world,
    async () => {
      const limited = await world.injectFault({ route: 'PATCH /webhooks/*', status: 429, times: 1 });
      const failed = await world.injectFault({ route: 'POST /webhooks/:id/:token', status: 500, times: 1 });
      expect(limited).toMatchObject({ status: 429, times: 1, remaining: 1 });

      const result = await world.user('alice').slash('/slow');
      expect(result.ok).toBe(true);
      expect(result.response?.content).toBe('done, slowly');
      expect(result.followups.map((m) => m.content)).toEqual(['and one more thing']);

      const calls = await world.requests();
      const webhookCalls = calls.filter(
        (c) => c.route.startsWith('PATCH /webhooks') || c.route.startsWith('POST /webhooks'),
      );
      expect(webhookCalls.map((c) => [c.method, c.status, c.fault_id])).toEqual([
        ['PATCH', 429, limited.id],
        ['PATCH', 200, null],
        ['POST', 500, failed.id],
        ['POST', 200, null],
      ]);
      for (const call of webhookCalls) expect(call.path).toMatch(/^\/api\/v10\/webhooks\/\d+\/\[redacted\]/);
      // The deferral itself: the callback route, whose token names no application.
      const callbacks = calls.filter(
        (c) => c.route === 'POST /interactions/{interaction_id}/{interaction_token}/callback',
      );
      expect(callbacks.map((c) => [c.status, c.error])).toEqual([[204, null]]);
      // discord.js adds `?with_response=false`; the log keeps the query as sent.
      expect(callbacks[0]?.path).toMatch(
        new RegExp(`^/api/v10/interactions/${result.interaction?.id}/\\[redacted\\]/callback(\\?|$)`),
      );
      expect(JSON.stringify(calls)).not.toContain(world.app.botToken);

      const transcript = world.transcript();
      expect(transcript).toContain('REST calls of the app');
      expect(transcript).toContain(`→ 429 in`);
      expect(transcript).toContain(`(injected fault ${limited.id})`);
      expect(transcript).toContain('You are being rate limited.');
    },
  ),
);

it(
  'refuses a fault it cannot apply, naming the field',
  withTranscript(
    () => world,
    async () => {
      await expect(world.injectFault({ route: 'SEND /x', status: 429 })).rejects.toThrow(
        /route: Unknown method "SEND"/,
      );
      await expect(world.injectFault({ route: 'GET /x', status: 200, times: 0 })).rejects.toThrow(
        /status:.*\n.*times:/s,
      );
      await world.injectFault({ route: 'GET /never', status: 503, times: 5 });
      await world.clearFaults();
    },
  ),
);

it(
  'says that no bot session was connected when a gateway app without one fails',
  withTranscript(
    () => world,
    async () => {
      const acs = await connectAcs({ url: stack.apiUrl, adminToken: stack.adminToken });
      const offline = await acs.createWorld({ users: ['carol'], channels: ['general'] });
      try {
        const created = await fetch(
          `${stack.apiUrl}/api/v10/applications/${offline.app.id}/guilds/${offline.guild.id}/commands`,
          {
            method: 'POST',
            headers: { authorization: `Bot ${offline.app.botToken}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'ping', description: 'Pings' }),
          },
        );
        expect(created.status).toBe(201);
        const result = await offline.user('carol').slash('/ping');
        expect(result.ok).toBe(false);
        expect(result.error).toMatch(
          /^the app did not answer within 3 s: no bot session was connected to receive INTERACTION_CREATE/,
        );
        const [entry] = await offline.interactions();
        expect(entry?.outcome).toMatchObject({
          kind: 'failed',
          reason_code: 2,
          cause: { kind: 'no_bot_session' },
          reason: expect.stringContaining('no bot session was connected'),
        });
        expect(offline.transcript()).toContain('no bot session was connected to receive INTERACTION_CREATE');
      } finally {
        await offline.destroy();
      }
    },
  ),
);
