import type { Client } from 'discord.js';
import { startTestStack, type TestStack } from '../../../test/support';
import { connectAcs, type World } from '../src';
import { withTranscript } from '../src/jest';
import { startDiceBot } from './fixtures/dice-bot';

/**
 * The kit's test controls against a real discord.js bot: faults injected with
 * `world.injectFault` fail the bot's calls, which discord.js retries; `world.requests()`
 * and the transcript tell every call with its status, fault and warnings, no token.
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
