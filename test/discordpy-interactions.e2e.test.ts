import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { discordPy } from './support/discord-py';
import { api, ChatUser } from './support/chat-user';
import { createDemoWorld, startTestStack, type DemoWorld, type TestStack } from './support';

/**
 * discord.py's app_commands run against invocations from ACS: the bot syncs its
 * CommandTree, a user invokes each command through `POST /interactions`, and discord.py
 * dispatches INTERACTION_CREATE to the right callback, whose `interaction.response` and
 * `followup` calls come back as the messages the user gets. Autocomplete goes through
 * discord.py's autocomplete handler.
 */
const { python, describeWithPython } = discordPy('discordpy-interactions');

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

describeWithPython('discord.py app_commands callbacks', () => {
  it('run for each invocation and their answers reach the user', async () => {
    const user = await ChatUser.open(stack, world.user.id);
    const outcomes: Record<string, any> = {};
    const invokeAll = async (synced: { id: string; name: string }[]) => {
      const index = await api(stack, 'GET', `/guilds/${world.guild.id}/application-command-index`, {
        token: user.token,
      });
      const byName = Object.fromEntries(
        (index.body.application_commands as any[])
          .filter((c) => synced.some((s) => s.id === c.id))
          .map((c) => [c.name, c]),
      );
      const body = (name: string, type: number, options?: unknown[]) => ({
        type,
        application_id: world.application.id,
        guild_id: world.guild.id,
        channel_id: world.channel.id,
        data: {
          id: byName[name].id,
          name,
          type: 1,
          version: byName[name].version,
          ...(options ? { options } : {}),
        },
      });
      outcomes.repeat = await user.invoke(
        body('repeat', 2, [
          { name: 'text', type: 3, value: 'hi' },
          { name: 'times', type: 4, value: 3 },
        ]),
      );
      outcomes.autocomplete = await user.invoke(
        body('fruit', 4, [{ name: 'name', type: 3, value: 'ap', focused: true }]),
      );
      outcomes.fruit = await user.invoke(body('fruit', 2, [{ name: 'name', type: 3, value: 'apricot' }]));
      outcomes.later = await user.invoke(body('later', 2));
    };

    let invoking: Promise<void> | undefined;
    const report = await new Promise<Record<string, any>>((resolve, reject) => {
      const child = spawn(python as string, [join(__dirname, 'clients', 'discordpy_interactions_bot.py')], {
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
        stdout += chunk.toString();
        const ready = /^ready (.*)$/m.exec(stdout);
        if (ready && !invoking) {
          invoking = invokeAll(JSON.parse(ready[1] ?? '[]'));
          invoking.catch(() => undefined);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        const line = stdout.trim().split('\n').pop() ?? '';
        try {
          resolve(JSON.parse(line));
        } catch {
          reject(
            new Error(
              `the bot exited ${code} without a report\n${stdout}\n${stderr}\n${stack.recentLogs(10)}`,
            ),
          );
        }
      });
    });
    await invoking;

    expect(report.error).toBeUndefined();
    expect(report.calls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          command: 'repeat',
          text: 'hi',
          times: 3,
          user: world.user.id,
          guild: world.guild.id,
        }),
        expect.objectContaining({ command: 'fruit', name: 'apricot' }),
        expect.objectContaining({ command: 'later' }),
      ]),
    );
    expect(outcomes.repeat.body).toMatchObject({ outcome: 'success', messages: [{ content: 'hi hi hi' }] });
    expect(outcomes.autocomplete.body).toMatchObject({
      outcome: 'success',
      response: {
        type: 8,
        data: {
          choices: [
            { name: 'apple', value: 'apple' },
            { name: 'apricot', value: 'apricot' },
          ],
        },
      },
    });
    expect(outcomes.fruit.body.messages[0].content).toBe('you picked apricot');
    expect(outcomes.later.body).toMatchObject({ outcome: 'success', response: { type: 5 } });
    expect(outcomes.later.body.messages[0].flags & 64).toBe(64);
  });
});
