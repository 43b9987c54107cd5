import type { TestStack } from './start-test-stack';

/**
 * Calls the admin API and expects `status`. Another status fails the test with the path,
 * the status and the body; a 5xx also with the stack's recent log lines, which say why.
 */
export async function expectAdmin(
  stack: TestStack,
  method: string,
  path: string,
  body: unknown,
  status: number,
): Promise<any> {
  const answer = await stack.admin(method, path, body);
  if (answer.status >= 500 && status < 500) {
    throw new Error(`${method} ${path}: ${answer.status}\n${stack.recentLogs(20)}`);
  }
  expect({ path, status: answer.status, body: answer.status === status ? null : answer.body }).toEqual({
    path,
    status,
    body: null,
  });
  return answer.body;
}

/**
 * Polls `probe` every 25 ms until it gives something other than undefined or false, and
 * returns that; past `timeoutMs` fails with `what` and the stack's recent log lines.
 */
export async function waitUntil<T>(
  stack: TestStack,
  what: string,
  probe: () => T | undefined | false,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${stack.recentLogs(10)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
