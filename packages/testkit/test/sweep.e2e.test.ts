import type { Client } from 'discord.js';
import { startTestStack, type TestStack } from '../../../test/support';
import { runCli } from '../src/cli/acs-cli';
import { connectAcs, type World } from '../src';
import { startSweepBot, type SweepBotLog } from './fixtures/sweep-bot';

/**
 * `acs-testkit sweep` against a real discord.js bot: every command, subcommand, choice,
 * bound and autocomplete option is invoked with valid values, and the one command whose
 * handler throws, and those whose answer ACS refused, are reported with the reason, with a
 * non-zero exit code.
 */
let stack: TestStack;
let world: World;
let bot: { client: Client<true>; log: SweepBotLog } | undefined;

beforeAll(async () => {
  // The 3 s window made short: /boom waits for it.
  stack = await startTestStack({ env: { INTERACTION_RESPONSE_DEADLINE_MS: '1500' } });
  const acs = await connectAcs({ url: stack.apiUrl, adminToken: stack.adminToken });
  world = await acs.createWorld({ users: ['alice'], channels: ['general'] });
  bot = await startSweepBot(stack.apiUrl, world.app.botToken, world.guild.id);
});

afterAll(async () => {
  await bot?.client.destroy();
  await world?.destroy();
  await stack?.stop();
});

async function sweep(extra: string[] = []): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runCli(
    [
      'sweep',
      '--base',
      stack.apiUrl,
      '--admin-token',
      stack.adminToken,
      '--app',
      world.app.id,
      '--guild',
      world.guild.id,
      '--channel',
      world.channel('general').id,
      '--user',
      world.user('alice').id,
      ...extra,
    ],
    { dataDir: undefined, env: {}, out: (line) => lines.push(...line.split('\n')) },
  );
  return { code, lines };
}

it('invokes every command with valid options and reports the one that throws', async () => {
  const { code, lines } = await sweep();
  const output = lines.join('\n');
  expect({ code, output }).toMatchObject({ code: 1 });
  const alice = world.user('alice').id;
  const general = world.channel('general').id;
  // Required options alone, then every option at its lower and upper bounds, each choice.
  expect(lines).toEqual(
    expect.arrayContaining([
      '✓ /order count:1 — answered: "ran order"',
      '✓ /order count:5 note:sweepsweepsweepsweep size:s gift:false city:sweepsweepsw — answered: "ran order"',
      '✓ /order count:1 note:sw size:m gift:true city:s — answered: "ran order"',
      '✓ /order count:5 note:sweepsweepsweepsweep size:l gift:false city:sweepsweepsw — answered: "ran order"',
      '✓ autocomplete /order count:1 city:? — 2 choice(s)',
      `✓ /team add who:${alice} — answered: "ran team add"`,
      `✓ /team config set where:${general} — answered: "ran team config set"`,
      '✓ /slow — answered: "done"',
      `✓ user command "Info" on user ${alice} — answered: "that is alice"`,
    ]),
  );
  expect(output).toMatch(/✓ message command "Quote" on message \d+ — answered: "quoting /);
  // The server's reason first (the timeline's), then the kit's reading of it.
  expect(output).toMatch(
    /✗ \/boom — timed out: the app did not answer within [\d.]+ s\n\s+the app did not answer in time \(reason_code 2\)/,
  );
  // An answer ACS refused: the timeline's exact reason, with the field that was wrong.
  expect(output).toMatch(
    /✗ \/fancy — answer refused: the app did not answer within [\d.]+ s; its callback was refused: 400 50035 Invalid Form Body: data\.embeds\.0\.title: BASE_TYPE_MAX_LENGTH \(Must be 256 or fewer in length\.\)/,
  );
  // Refused first, then answered: still reported.
  expect(output).toMatch(
    /✗ \/stubborn — answer refused: the app answered in the end, but ACS refused an answer of its first: 400 50035 Invalid Form Body: data\.embeds\.0\.title: BASE_TYPE_MAX_LENGTH/,
  );
  expect(lines.at(-1)).toBe(
    '13 invocation(s): 10 ok, 0 failed, 1 timed out, 0 refused, 2 answer refused, 0 skipped',
  );
  // The refused callbacks are in the app's request log, with the error the bot got, no token.
  const calls = await world.requests();
  const callbacks = calls.filter(
    (c) => c.route === 'POST /interactions/{interaction_id}/{interaction_token}/callback',
  );
  expect(callbacks.filter((c) => c.status === 400).length).toBeGreaterThanOrEqual(2);
  expect(callbacks.find((c) => c.status === 400)?.error).toMatchObject({ code: 50035 });
  for (const call of callbacks)
    expect(call.path).toMatch(/^\/api\/v10\/interactions\/\d+\/\[redacted\]\/callback(\?|$)/);
  // The bot saw what the sweep says it sent, and only /boom threw.
  expect(bot?.log.ran).toEqual(
    expect.arrayContaining([
      'order count=1',
      'order count=5 note=sweepsweepsweepsweep size=s gift=false city=sweepsweepsw',
      'boom',
    ]),
  );
  // /boom's bug, and /fancy's refused reply (discord.js throws the 400 at the bot).
  expect([...(bot?.log.thrown ?? [])].sort()).toEqual([
    'Invalid Form Body\ndata.embeds[0].title[BASE_TYPE_MAX_LENGTH]: Must be 256 or fewer in length.',
    'boom: a bug in the bot',
  ]);
});

it('exits 0 when there is nothing to sweep', async () => {
  const other = await connectAcs({ url: stack.apiUrl, adminToken: stack.adminToken });
  const empty = await other.createWorld({ users: ['bob'] });
  try {
    const lines: string[] = [];
    const code = await runCli(
      [
        'sweep',
        '--base',
        stack.apiUrl,
        '--admin-token',
        stack.adminToken,
        '--app',
        empty.app.id,
        '--guild',
        empty.guild.id,
        '--channel',
        empty.channel().id,
        '--user',
        empty.user('bob').id,
      ],
      { dataDir: undefined, env: {}, out: (line) => lines.push(line) },
    );
    expect({ code, lines }).toEqual({
      code: 0,
      lines: ['no commands of this app can be used here: nothing to sweep'],
    });
  } finally {
    await empty.destroy();
  }
});
