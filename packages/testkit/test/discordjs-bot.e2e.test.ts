import type { Client } from 'discord.js';
import { startTestStack, type TestStack } from '../../../test/support';
import { connectAcs, type World } from '../src';
import { withTranscript } from '../src/jest';
import { startDiceBot } from './fixtures/dice-bot';

/**
 * The kit drives a real discord.js bot against a whole stack: every kind of interaction,
 * each read back as the user saw it, and a failure that says why.
 */
let stack: TestStack;
let world: World;
let bot: Client<true> | undefined;

beforeAll(async () => {
  // The 3 s window made short: the failing case waits for it.
  stack = await startTestStack({ env: { INTERACTION_RESPONSE_DEADLINE_MS: '1500' } });
  const acs = await connectAcs({ url: stack.apiUrl, adminToken: stack.adminToken });
  world = await acs.createWorld({ users: ['alice', 'bob'], channels: ['general', 'dice'] });
  bot = await startDiceBot(stack.apiUrl, world.app.botToken, world.guild.id);
});

afterAll(async () => {
  await bot?.destroy();
  await world?.destroy();
  await stack?.stop();
});

it(
  'invokes a slash command by name, clicks its button (an edit) and picks in its select',
  withTranscript(
    () => world,
    async () => {
      const alice = world.user('alice');
      const rolled = await alice.slash('/roll sides:20', { channel: 'dice' });
      expect(rolled).toMatchObject({
        ok: true,
        acknowledged: true,
        deferred: false,
        ephemeral: false,
        error: null,
      });
      expect(rolled.response?.content).toBe('🎲 20 (d20)');
      expect(rolled.response?.channel_id).toBe(world.channel('dice').id);
      expect(rolled.interaction?.member?.user?.id).toBe(alice.id);

      const clicked = await alice.click(rolled.response, { customId: 'again' });
      expect(clicked.ok).toBe(true);
      // The button's message, as edited.
      expect(clicked.response?.id).toBe(rolled.response?.id);
      expect(clicked.response?.content).toBe('rolled again: 🎲 1');
      expect(clicked.response?.components).toEqual([]);

      // The click's edit took the components away: bob picks in a new roll's select.
      await expect(alice.select(clicked.response, { customId: 'pick', values: ['blue'] })).rejects.toThrow(
        `message ${rolled.response?.id} has no select "pick" (its selects: none)`,
      );
      const again = await alice.slash('/roll sides:6', { channel: 'dice' });
      const chosen = await world.user('bob').select(again.response, { customId: 'pick', values: ['blue'] });
      expect(chosen.ok).toBe(true);
      expect(chosen.response?.content).toBe('you picked the blue die');
    },
  ),
);

it(
  'asks for autocomplete choices',
  withTranscript(
    () => world,
    async () => {
      const result = await world.user('alice').autocomplete('/roll sides:1');
      expect(result.ok).toBe(true);
      expect(result.choices).toEqual([
        { name: 'd10', value: 10 },
        { name: 'd12', value: 12 },
      ]);
    },
  ),
);

it(
  'submits the modal the bot opened and reads its ephemeral reply',
  withTranscript(
    () => world,
    async () => {
      const alice = world.user('alice');
      const opened = await alice.slash('/feedback');
      expect(opened.ok).toBe(true);
      expect(opened.modal).toMatchObject({ custom_id: 'feedback-form', title: 'Feedback' });
      const submitted = await alice.submitModal(opened.modal, { feedback: 'great dice' });
      expect(submitted).toMatchObject({ ok: true, ephemeral: true });
      expect(submitted.response?.content).toBe('thanks for “great dice”');
      await expect(alice.submitModal(opened.modal, { mood: 'x' })).rejects.toThrow(
        'modal "Feedback" (feedback-form) has no input "mood" (it has: feedback)',
      );
    },
  ),
);

it(
  'waits for a deferred reply to be filled in, and takes its follow-up',
  withTranscript(
    () => world,
    async () => {
      const result = await world.user('alice').slash('/slow');
      expect(result).toMatchObject({ ok: true, deferred: true, error: null });
      expect(result.response?.content).toBe('done, slowly');
      expect(result.followups.map((m) => m.content)).toEqual(['and one more thing']);

      // A deferred update of the button's message, then its edit.
      const counter = await world.user('alice').slash('/counter');
      const clicked = await world.user('alice').click(counter.response, { customId: 'inc' });
      expect(clicked).toMatchObject({ ok: true, deferred: true });
      expect(clicked.response).toMatchObject({ id: counter.response?.id, content: 'count: 1' });
    },
  ),
);

it(
  "reads the server's timeline and makes an interaction's windows pass at once",
  withTranscript(
    () => world,
    async () => {
      const result = await world.user('alice').slash('/slow');
      const id = result.interaction?.id as string;
      const [entry] = await world.interactions({ limit: 1 });
      expect(entry).toMatchObject({
        id,
        data: { name: 'slow' },
        state: 'answered',
        delivery: { kind: 'gateway' },
        outcome: { kind: 'answered', callback_type: 5 },
        edits: [{ kind: 'edit', original: true, body: { content: 'done, slowly' } }],
        followups: [{ kind: 'followup', body: { content: 'and one more thing' } }],
        windows: { initial: 'closed', token: 'valid' },
      });
      const expired = await world.expireInteraction(result, 'token');
      expect(expired.windows).toEqual({ initial: 'closed', token: 'expired' });
      expect(world.transcript()).toContain(`the 15-minute token of interaction ${id} expired`);
      await expect(world.expireInteraction({ id: '1' }, 'initial')).rejects.toThrow('Unknown interaction');
    },
  ),
);

it('says when a deferred reply is never filled in', async () => {
  const result = await world.user('alice').slash('/forgetful', { finalTimeoutMs: 1500 });
  expect(result).toMatchObject({ ok: false, acknowledged: true, deferred: true });
  expect(result.error).toBe(
    'the app deferred its reply (callback type 5) but did not fill it in within 1500 ms: the user still sees ' +
      '“thinking…” (edit the original response, e.g. interaction.editReply)',
  );
  expect(world.transcript()).toContain(
    'alice › /forgetful  (#general)\n  ↳ deferred, then Test App (thinking…): ',
  );
});

it(
  'runs USER and MESSAGE commands on their targets',
  withTranscript(
    () => world,
    async () => {
      const alice = world.user('alice');
      const info = await alice.userCommand('Info', { target: 'bob' });
      expect(info.response?.content).toBe(`bob is user ${world.user('bob').id}`);
      const rolled = await alice.slash('/roll sides:4');
      const duel = await alice.slash('/duel opponent:@bob arena:#dice');
      expect(duel.response?.content).toBe('alice challenges bob in #dice');
      await expect(alice.slash('/duel opponent:@carol')).rejects.toThrow(
        'no user "carol" in this world (its users: alice, bob)',
      );
      const reported = await alice.messageCommand('Report', { target: rolled.response! });
      expect(reported).toMatchObject({ ok: true, ephemeral: true });
      expect(reported.response?.content).toBe(`reported message ${rolled.response?.id}`);
    },
  ),
);

it('names what exists when a test names what does not', async () => {
  const alice = world.user('alice');
  await expect(alice.slash('/nope')).rejects.toThrow(
    'no slash command /nope here (/roll, /feedback, /slow, /broken, /forgetful, /counter, /duel)',
  );
  await expect(alice.userCommand('Nope', { target: 'bob' })).rejects.toThrow(
    'no user command "Nope" here ("Info")',
  );
  expect(() => world.user('carol')).toThrow('no user "carol" in this world (its users: alice, bob)');
  expect(() => world.channel('random')).toThrow(
    'no channel "random" in this world (its channels: general, dice)',
  );
  const rolled = await alice.slash('/roll sides:6');
  await expect(alice.click(rolled.response, { customId: 'nope' })).rejects.toThrow(
    `message ${rolled.response?.id} has no button "nope" (its buttons: again)`,
  );
  await expect(alice.select(rolled.response, { customId: 'pick', values: ['green'] })).rejects.toThrow(
    'select pick has no option "green" (it has: red, blue)',
  );
  await expect(alice.send('nowhere', 'hi')).rejects.toThrow(
    'no channel "nowhere" in this world (its channels: general, dice)',
  );
  await expect(alice.send('general', '')).rejects.toThrow('alice could not send to #general');
});

it('sends plain messages and reads a channel as each viewer sees it', async () => {
  const alice = world.user('alice');
  const sent = await alice.send('dice', 'good luck, bob');
  expect(sent).toMatchObject({ content: 'good luck, bob', channel_id: world.channel('dice').id });
  const seenByBob = await world.channel('dice').history({ viewer: 'bob' });
  expect(seenByBob[0]).toMatchObject({ id: sent.id, content: 'good luck, bob', author: { id: alice.id } });
  expect(await world.user('bob').history('dice', { limit: 1 })).toHaveLength(1);
  expect(world.transcript()).toContain('alice in #dice: "good luck, bob"');
});

it('says why an interaction failed, and the failing test shows the transcript', async () => {
  const failing = withTranscript(
    () => world,
    async () => {
      const result = await world.user('bob').slash('/broken');
      expect(result.ok).toBe(true);
    },
  );
  const failure: Error = await failing().then(
    () => {
      throw new Error('the test passed');
    },
    (error: Error) => error,
  );
  // Jest's own failure message first, then the transcript.
  expect(failure.message).toContain('expect(received).toBe(expected)');
  expect(failure.message).toContain('What happened in the world (acs-testkit transcript):');
  expect(failure.message).toContain('bob › /broken  (#general)');
  expect(failure.message).toContain('✗ the app did not answer within 1.5 s\n');
  expect(failure.message).toContain('the app did not answer in time (reason_code 2)');
  // The earlier interactions are told too, with their answers.
  expect(failure.message).toContain('alice › /roll sides:20  (#dice)');
  expect(failure.message).toContain('Test App: 🎲 20 (d20)');
  expect(failure.message).toContain('[button "Roll again"] again');
  expect(failure.message).toContain('alice › clicks [Roll again] (again) on message');
  expect(failure.message).toContain('Test App (only you can see this): thanks for “great dice”');

  const result = await world.user('bob').slash('/broken');
  expect(result).toMatchObject({ ok: false, acknowledged: false, response: null });
  expect(result.error).toContain('no callback within the response deadline');
  expect(world.transcript()).toMatch(
    /bob › \/broken {2}\(#general\)\n {2}✗ the app did not answer within 1\.5 s\n {4}the app did not answer in time/,
  );
});
