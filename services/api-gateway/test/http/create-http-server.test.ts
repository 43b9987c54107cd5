import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createHttpServer } from '../../src/http/create-http-server';
import { loadConfig } from '../../src/config';

/**
 * Node's timeouts as the gateway sets them: a client that trickles its headers or its body
 * is answered 408 and disconnected after seconds (here: fractions of one), not Node's 300 s.
 */
let server: Server;
let port: number;

beforeAll(async () => {
  server = createHttpServer(
    (req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    },
    { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 2_000, checkIntervalMs: 50 },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Opens a connection, writes `first`, then keeps writing `drip` every 100 ms; resolves what the server said and when it hung up. */
function trickle(first: string, drip: string): Promise<{ answer: string; afterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(first));
    const timer = setInterval(() => socket.writable && socket.write(drip), 100);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, afterMs: Date.now() - started });
    });
  });
}

describe('createHttpServer', () => {
  it('answers 408 to a client still sending its headers after headersTimeout', async () => {
    const { answer, afterMs } = await trickle('GET / HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(afterMs).toBeGreaterThanOrEqual(250);
    expect(afterMs).toBeLessThan(1_500);
  });

  it('answers 408 to a client still sending its body after requestTimeout', async () => {
    const { answer, afterMs } = await trickle(
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n',
      'x'.repeat(10),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(afterMs).toBeGreaterThanOrEqual(550);
    expect(afterMs).toBeLessThan(2_000);
  });

  it('serves a prompt client, and keeps its idle connection for keepAliveTimeout', async () => {
    expect(server.keepAliveTimeout).toBe(2_000);
    expect(server.requestTimeout).toBe(600);
    expect(server.headersTimeout).toBe(300);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
  });
});

describe('the configuration', () => {
  const env = { ADMIN_TOKEN: 'an-admin-token-of-the-test' };

  it('sets timeouts for an API by default, each configurable', () => {
    expect(loadConfig(env)).toMatchObject({
      HTTP_REQUEST_TIMEOUT_MS: 30_000,
      HTTP_HEADERS_TIMEOUT_MS: 10_000,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: 65_000,
      REQUEST_DEADLINE_MS: 10_000,
    });
    expect(
      loadConfig({ ...env, HTTP_REQUEST_TIMEOUT_MS: '20000', HTTP_HEADERS_TIMEOUT_MS: '5000' }),
    ).toMatchObject({ HTTP_REQUEST_TIMEOUT_MS: 20_000, HTTP_HEADERS_TIMEOUT_MS: 5_000 });
  });

  it('refuses a headers timeout longer than the request timeout', () => {
    expect(() =>
      loadConfig({ ...env, HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '9000' }),
    ).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });
});
