import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { startTestStack, type TestStack } from '../../../test/support';

/**
 * `acs-testkit/vitest` under a real vitest run: test/fixtures/vitest/world.spec.mjs (a
 * passing test and one that fails on purpose) against a stack; the failure's report ends
 * with the world's transcript.
 */
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

function vitest(): Promise<{ code: number; output: string }> {
  const root = join(__dirname, 'fixtures', 'vitest');
  const bin = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, 'run', '--root', root, '--reporter', 'default', '--no-color'],
      {
        cwd: root,
        env: { ...process.env, ACS_URL: stack.apiUrl, ACS_ADMIN_TOKEN: stack.adminToken, NO_COLOR: '1' },
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

it('prints the transcript of the test that fails, and only that one', async () => {
  const { code, output } = await vitest();
  expect({ code, output }).toMatchObject({ code: 1 });
  expect(output).toMatch(/1 failed \| 1 passed/);
  expect(output).toMatch(/fails on purpose: the app registered no \/roll/);
  const transcript = output.slice(output.indexOf('What happened in the world (acs-testkit transcript):'));
  expect(transcript).toMatch(/· world: guild "Test World [0-9a-f]+" \(\d+\), channels #lounge, users dora/);
  expect(transcript).toContain('about to roll');
  expect(output).not.toMatch(/sends a message the channel shows: What happened/);
});
