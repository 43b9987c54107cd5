import * as fs from 'node:fs';
import { startTestStack, type TestStack } from './support';

// The launcher (infra/src/stack.js) as the tests use it: no port is chosen in advance
// (gRPC over Unix sockets of the stack's own, edges on port 0 reporting what they got),
// a restart keeps the stack usable, and a start that fails names the service and shows
// its last lines instead of timing out blind.

describe('a running stack', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('serves gRPC on Unix sockets of its own and the edges on the ports the services reported', async () => {
    const targets = Object.entries(stack.grpcTargets);
    expect(targets.length).toBeGreaterThanOrEqual(4);
    for (const [name, target] of targets) {
      // Under ACS_TEST_REPLICAS each backend's replicas listen on TCP ports of their own,
      // listed in one target (the dispatchers keep a socket each).
      if (stack.replicas > 1 && name !== 'dispatcher')
        expect(target).toMatch(
          new RegExp(`^ipv4:127\\.0\\.0\\.1:\\d+(,127\\.0\\.0\\.1:\\d+){${stack.replicas - 1}}$`),
        );
      else expect(target).toMatch(/^unix:\/.*\/acs-[^/]+\/[a-z-]+\.sock$/);
    }
    if (stack.replicas === 1) expect(fs.existsSync(stack.grpcTargets.oauth.slice('unix:'.length))).toBe(true);
    expect(stack.apiUrl).toBe(`http://127.0.0.1:${stack.ports.http}`);
    expect(stack.ports.http).toBeGreaterThan(0);
    expect((await fetch(`${stack.apiUrl}/readyz`)).status).toBe(200);
    // The dispatcher's WebSocket gateway answers plain HTTP with 426.
    expect((await fetch(`http://127.0.0.1:${stack.ports.gateway}/`)).status).toBe(426);
  });

  it('restarts a backend on its socket and an edge on a port it reports, ready when restart resolves', async () => {
    await stack.restart('oauth');
    expect((await stack.admin('POST', '/admin/users', { username: 'after-oauth' })).status).toBe(201);
    await stack.restart('api-gateway');
    expect((await fetch(`${stack.apiUrl}/readyz`)).status).toBe(200);
    expect((await stack.admin('POST', '/admin/users', { username: 'after-gateway' })).status).toBe(201);
  });
});

describe('a stack that cannot start', () => {
  it('names the service that died and shows its last lines', async () => {
    // One of each (ACS_TEST_REPLICAS aside): the message names the service, not a replica.
    const start = startTestStack({ replicas: 1, env: { MAX_BODY_BYTES: '-1' } });
    await expect(start).rejects.toThrow(/^api-gateway exited with code 1 [^]*MAX_BODY_BYTES/);
  });

  it('names the service that did not report listening in time, with its last lines', async () => {
    // Nothing listens on port 1: the dispatcher waits for NATS before it listens.
    const start = startTestStack({ replicas: 1, natsUrl: 'nats://127.0.0.1:1', readyTimeoutMs: 10_000 });
    // On a busy machine other services may be late too: the dispatcher must be among those
    // named, with its own last lines.
    await expect(start).rejects.toThrow(
      /^([a-z-]+, )*dispatcher(, [a-z-]+)* did not report listening within 10 s[^]*last lines of dispatcher/,
    );
  });
});
