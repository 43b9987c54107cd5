import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../packages/testkit/src/cli/acs-cli';
import { runExamples } from '../infra/src/run-examples';
import { createDemoWorld, startTestStack, type DemoWorld, type TestStack } from './support';

/**
 * What a newcomer does after `npm start -- --with-examples`: the example bots run against
 * the demo world (examples/http-bot with discord-interactions, examples/gateway-bot with
 * discord.js), and `npx acs` lists and invokes their commands and prints the answers.
 */
let stack: TestStack;
let world: DemoWorld;
let dataDir: string;
let examples: { stop: () => Promise<unknown> } | undefined;

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack);
  dataDir = mkdtempSync(join(tmpdir(), 'acs-cli-'));
  writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(world));
  writeFileSync(join(dataDir, 'stack.json'), JSON.stringify({ apiUrl: stack.apiUrl }));
  writeFileSync(join(dataDir, 'admin-token'), `${stack.adminToken}\n`);
  examples = await runExamples({
    apiUrl: stack.apiUrl,
    admin: stack.admin,
    seed: world,
    dataDir,
    say: () => undefined,
  });
});

afterAll(async () => {
  await examples?.stop();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `npx acs <argv>` in-process; answers its exit code and output. */
async function acs(...argv: string[]): Promise<{ code: number; output: string }> {
  const lines: string[] = [];
  const code = await runCli(argv, { dataDir, env: {}, out: (line) => lines.push(line) });
  return { code, output: lines.join('\n') };
}

it('lists the commands of both example bots', async () => {
  const listed = await acs();
  expect(listed.code).toBe(0);
  for (const command of [
    '/ping',
    '/echo text:<text> [secret:<true|false>]',
    '/hello',
    '/roll [sides:<integer>]',
  ]) {
    expect(listed.output).toContain(command);
  }
});

it('invokes each and prints the answer, over HTTP and over the gateway', async () => {
  expect(await acs('invoke', '/ping')).toEqual({
    code: 0,
    output: `Demo HTTP App: Pong! (answered over HTTP to ${world.user.username})`,
  });
  expect(await acs('invoke', '/hello')).toEqual({
    code: 0,
    output: `${world.application.name}: Hello, ${world.user.username}! (answered over the gateway)`,
  });
  expect((await acs('invoke', '/echo text:"two words" secret:true')).output).toBe(
    'Demo HTTP App (only you can see this): two words',
  );
  expect((await acs('invoke', '/roll sides:20')).output).toMatch(
    /\(only you can see this\): 🎲 \d+ \(d20\)$/,
  );
});

it('prints the server’s validation errors and the outcome JSON on request', async () => {
  const refused = await acs('invoke', '/roll sides:1');
  expect(refused.code).toBe(1);
  expect(refused.output).toContain('data.options.0.value');
  expect(refused.output).toContain('INTERACTION_APPLICATION_COMMAND_OPTION_INVALID');
  const json = await acs('invoke', '/ping', '--json');
  expect(JSON.parse(json.output)).toMatchObject({
    outcome: 'success',
    messages: [{ content: expect.stringContaining('Pong!') }],
  });
  await expect(acs('invoke', '/nope')).rejects.toThrow('no slash command /nope here');
});
