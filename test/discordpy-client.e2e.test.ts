import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { discordPy } from './support/discord-py';
import {
  createDemoWorld,
  createGuild,
  installApplication,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';

/**
 * discord.py, the other client bot developers use most, drives the stack from Python:
 * login (GET /users/@me), the gateway with zlib-stream compression, its CommandTree's
 * sync (bulk overwrite) globally and for a guild, fetches, the application info, a
 * validation error flattened by discord.py, a delete, and on_guild_join when the bot is
 * installed in a guild while connected. Debian packages it
 * (python3-discord); `.ci/run` installs it when missing.
 */

const { python, describeWithPython } = discordPy('discordpy-client');

let stack: TestStack;
let world: DemoWorld;

beforeAll(async () => {
  if (!python) return;
  stack = await startTestStack();
  world = await createDemoWorld(stack);
});

afterAll(async () => {
  await stack?.stop();
});

/** Runs the bot script and returns the JSON report it prints; `onLine` sees every line before. */
function runBot(onLine: (line: string) => void): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const child = spawn(python as string, [join(__dirname, 'clients', 'discordpy_bot.py')], {
      env: {
        ...process.env,
        ACS_API: stack.apiUrl,
        ACS_GATEWAY: `ws://127.0.0.1:${stack.ports.gateway}/`,
        BOT_TOKEN: world.application.botToken,
        GUILD_ID: world.guild.id,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const complete = stdout.lastIndexOf('\n') + 1;
      stdout += chunk.toString();
      const end = stdout.lastIndexOf('\n') + 1;
      for (const line of stdout.slice(complete, end).split('\n')) if (line) onLine(line);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(
          new Error(`the bot exited ${code} without a report\n${stdout}\n${stderr}\n${stack.recentLogs(10)}`),
        );
      }
    });
  });
}

describeWithPython('discord.py against the stack', () => {
  it('logs in, becomes ready, syncs, fetches and deletes commands, reads API errors, and joins a guild', async () => {
    let joining: Promise<string> | undefined;
    const report = await runBot((line) => {
      if (line !== 'waiting-for-join') return;
      joining = (async () => {
        const guild = await createGuild(stack, { name: 'Joined Later', owner_id: world.user.id });
        await installApplication(stack, {
          applicationId: world.application.id,
          userId: world.user.id,
          guildId: guild.id,
        });
        return guild.id;
      })();
      // Awaited below, once the bot reported.
      joining.catch(() => undefined);
    });
    expect(report.error).toBeUndefined();
    expect(report.user).toEqual({ id: world.application.id, bot: true });
    expect(report.application_id).toBe(world.application.id);
    expect(report.guilds).toEqual([world.guild.id]);

    expect(report.synced_global).toEqual([
      ['Inspect User', 2],
      ['echo', 1],
    ]);
    expect(report.synced_guild).toEqual([{ name: 'settings', options: ['show'], guild_id: world.guild.id }]);
    expect(report.fetched_global).toEqual(['Inspect User', 'echo']);
    expect(report.echo_options).toEqual([
      { name: 'text', required: true, min: null, max: null },
      { name: 'times', required: false, min: 1, max: 5 },
    ]);
    expect(report.echo_mention).toMatch(/^<\/echo:\d{17,19}>$/);
    expect(report.fetched_one).toBe('echo');
    expect(report.application_info).toEqual({
      id: world.application.id,
      name: world.application.name,
      verify_key: world.application.verifyKey,
    });

    // discord.py turns the nested errors tree into its own message.
    expect(report.bad_command).toMatchObject({ status: 400, code: 50035 });
    expect(report.bad_command.text).toMatch(/In name: /);
    expect(report.after_delete).toEqual(['Inspect User']);

    // READY's guild came filled in (on_guild_available); the new one is a join (on_guild_join),
    // which discord.py fires only for a GUILD_CREATE without `unavailable`.
    expect(joining).toBeDefined();
    const joinedId = await joining!;
    expect(report.join_timeout).toBeUndefined();
    expect(report.available).toEqual([world.guild.id]);
    expect(report.joined).toEqual([joinedId]);
  });
});
