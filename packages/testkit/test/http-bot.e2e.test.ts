import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startTestStack, type TestStack } from '../../../test/support';
import { connectAcs, type World } from '../src';
import { withTranscript } from '../src/jest';

/**
 * The kit drives an HTTP-endpoint bot (examples/http-bot, verifying every request's
 * signature with discord-interactions) as it drives a gateway bot: the same calls, the
 * same results; an endpoint that is gone fails with reason_code 1.
 */
let stack: TestStack;
let world: World;
let bot: ChildProcess | undefined;

beforeAll(async () => {
  stack = await startTestStack();
  const acs = await connectAcs({ url: stack.apiUrl, adminToken: stack.adminToken, quietMs: 300 });
  world = await acs.createWorld({ users: ['alice'], channels: ['general'] });
  bot = spawn(process.execPath, [join(__dirname, '..', '..', '..', 'examples', 'http-bot', 'index.js')], {
    env: {
      ...process.env,
      ACS_URL: stack.apiUrl,
      APPLICATION_ID: world.app.id,
      BOT_TOKEN: world.app.botToken,
      PUBLIC_KEY: world.app.publicKey,
      GUILD_ID: world.guild.id,
      PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let output = '';
    bot?.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    });
    bot?.once('exit', (code) => reject(new Error(`http-bot exited (${code}): ${output}`)));
  });
  const set = await stack.admin('PATCH', `/admin/applications/${world.app.id}`, {
    interactions_endpoint_url: endpoint,
  });
  expect(set.status).toBe(200);
});

afterAll(async () => {
  if (bot && bot.exitCode === null) bot.kill('SIGTERM');
  await world?.destroy();
  await stack?.stop();
});

it(
  'invokes the commands of an HTTP bot and reads its answers',
  withTranscript(
    () => world,
    async () => {
      const alice = world.user('alice');
      const pong = await alice.slash('/ping');
      expect(pong).toMatchObject({ ok: true, ephemeral: false, deferred: false });
      expect(pong.response?.content).toBe('Pong! (answered over HTTP to alice)');
      const secret = await alice.slash('/echo text:"hi there" secret:true', { channel: 'general' });
      expect(secret).toMatchObject({ ok: true, ephemeral: true });
      expect(secret.response?.content).toBe('hi there');
      await expect(alice.slash('/echo')).rejects.toThrow('/echo needs option "text"');
    },
  ),
);

it('says the app could not be reached when its endpoint is gone', async () => {
  const exited = new Promise((resolve) => bot?.once('exit', resolve));
  bot?.kill('SIGTERM');
  await exited;
  const result = await world.user('alice').slash('/ping');
  expect(result).toMatchObject({ ok: false, acknowledged: false, response: null });
  expect(result.error).toMatch(/^the interactions endpoint was unreachable: .*ECONNREFUSED/);
  expect(result.error).toContain('the app could not be reached or answered badly (reason_code 1)');
  expect(world.transcript()).toMatch(
    /alice › \/ping {2}\(#general\)\n {2}✗ the interactions endpoint was unreachable/,
  );
  // The server's timeline says the same, with the delivery it tried.
  const [entry] = await world.interactions({ limit: 1 });
  expect(entry).toMatchObject({
    id: result.interaction?.id,
    state: 'failed',
    delivery: { kind: 'endpoint', status: null },
  });
  expect(result.error).toContain(entry!.reason);
  expect(world.transcript()).toContain('Test App: Pong! (answered over HTTP to alice)');
});
