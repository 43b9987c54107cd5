import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discordPy } from './support/discord-py';
import { startTestStack, type TestStack } from './support';

/**
 * The Python test kit (packages/testkit/python) as a discord.py bot's developer uses it:
 * pytest with the kit's plugin runs test/clients/test_discordpy_kit.py, each test on a
 * fresh `acs_world` with the bot of test/clients/discordpy_kit_bot.py logged in to it: a
 * slash command and a button that edits its message, autocomplete, a modal with an
 * ephemeral reply, a deferred reply with a follow-up, a `!ping` prefix message, two game
 * players without chat accounts meeting in a lobby, and one test that fails on purpose,
 * whose transcript pytest must print.
 */
const { python, describeWithPython } = discordPy('testkit-python');
const PYTEST_FILE = join(__dirname, 'clients', 'test_discordpy_kit.py');

let stack: TestStack;

beforeAll(async () => {
  if (!python) return;
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

/** Runs pytest (in `cwd`, default test/clients); its exit code and output, whatever they are. */
function pytest(args: string[], cwd = join(__dirname, 'clients')): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      python as string,
      ['-m', 'pytest', '-p', 'acs_testkit.pytest_plugin', '-p', 'no:cacheprovider', '-rA', ...args],
      {
        cwd,
        env: {
          ...process.env,
          PYTHONPATH: [join(__dirname, '..', 'packages', 'testkit', 'python'), cwd].join(':'),
          PYTHONDONTWRITEBYTECODE: '1',
          ACS_URL: stack.apiUrl,
          ACS_ADMIN_TOKEN: stack.adminToken,
        },
        timeout: 240_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

describeWithPython('the Python kit with a discord.py bot under pytest', () => {
  it('passes the bot’s tests and prints the transcript of the one that fails', async () => {
    const { code, output } = await pytest([PYTEST_FILE]);
    const why = `pytest said:\n${output}\n${stack.recentLogs(10)}`;
    // pytest's exit code 1: tests ran and some failed (2-5: interrupted, usage, no tests).
    expect({ code, why }).toEqual({ code: 1, why });
    for (const name of [
      'test_slash_and_button_edit',
      'test_autocomplete',
      'test_modal_with_ephemeral_reply',
      'test_deferred_reply_and_followup',
      'test_prefix_message',
      'test_provisional_players_in_a_lobby',
    ]) {
      expect({ passed: output.includes(`PASSED test_discordpy_kit.py::${name}`), name, why }).toMatchObject({
        passed: true,
      });
    }
    expect(output).toMatch(/FAILED test_discordpy_kit.py::test_fails_with_transcript/);
    expect(output).toMatch(/1 failed, 6 passed/);
    // The failing test's transcript: its world, carol's command and the bot's answer with its button.
    const transcript = output.slice(output.indexOf('acs-testkit transcript'));
    expect(transcript).toMatch(/What happened in the world \(acs-testkit transcript\):/);
    expect(transcript).toMatch(
      /· world: guild "Test World [0-9a-f]+" \(\d+\), channels #dice, users carol, app "Test App"/,
    );
    expect(transcript).toMatch(/carol › \/roll sides:6 {2}\(#dice\)\n\s+↳ Test App: 🎲 [1-6] \(d6\)/);
    expect(transcript).toMatch(/\[button "Roll again"\] again/);
    // Only the failing test prints one.
    expect(output.split('What happened in the world').length).toBe(2);
  });

  it('the kit’s own offline tests pass (locating the stack, reading command lines)', async () => {
    const { code, output } = await pytest([join(__dirname, '..', 'packages', 'testkit', 'python', 'tests')]);
    expect({ code, output }).toMatchObject({ code: 0 });
    expect(output).toMatch(/\d+ passed/);
  });

  it('runs the README’s Python example as written', async () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const block = (after: string) => {
      const at = readme.indexOf(after);
      const match = /```python\n([\s\S]*?)```/.exec(readme.slice(at));
      if (at < 0 || !match) throw new Error(`README.md has no python block after "${after}"`);
      return match[1] as string;
    };
    const folder = mkdtempSync(join(tmpdir(), 'acs-readme-py-'));
    try {
      writeFileSync(join(folder, 'test_roll.py'), block('`test_roll.py`, against the bot below:'));
      writeFileSync(join(folder, 'bot.py'), block('`bot.py`, any discord.py bot:'));
      const { code, output } = await pytest(['test_roll.py'], folder);
      expect({ code, output }).toMatchObject({ code: 0 });
      expect(output).toMatch(/1 passed/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
