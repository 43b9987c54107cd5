import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAddressPolicy, PUBLIC_ONLY, WebhookPoster, type WebhookPosterOptions } from '../src';

// The POST machinery against a real HTTP server on loopback (allowed by the policy where a
// test needs to connect); DNS is the only thing replaced, through the `resolve` option.

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the receiver does with a request: answer it, or (`hang`) never answer. */
type Behaviour = (response: http.ServerResponse) => void | 'hang';

let server: http.Server;
let port: number;
let behaviour: Behaviour;
const received: Received[] = [];
const posters: WebhookPoster[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      behaviour(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const poster of posters) poster.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received.length = 0;
  behaviour = (response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"type":1}');
  };
});

const LOOPBACK = parseAddressPolicy('loopback');

function poster(options: Partial<WebhookPosterOptions> = {}): WebhookPoster {
  const made = new WebhookPoster({
    policy: LOOPBACK,
    timeoutMs: 2000,
    maxSocketsPerDestination: 2,
    ...options,
  });
  posters.push(made);
  return made;
}

describe('WebhookPoster', () => {
  it('POSTs the body with its headers to the URL and answers the status and body', async () => {
    const outcome = await poster({ userAgent: 'Test-Agent/1' }).post(
      `http://127.0.0.1:${port}/hooks/app?x=1`,
      '{"type":1}',
      { 'x-signature-ed25519': 'ab', 'x-signature-timestamp': '1700000000' },
    );
    expect(outcome).toEqual({ kind: 'answered', status: 200, body: '{"type":1}' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: 'POST',
      url: '/hooks/app?x=1',
      body: '{"type":1}',
      headers: {
        host: `127.0.0.1:${port}`,
        'content-type': 'application/json',
        'content-length': '10',
        'user-agent': 'Test-Agent/1',
        'x-signature-ed25519': 'ab',
        'x-signature-timestamp': '1700000000',
      },
    });
  });

  it("lets a request's headers set the user agent, and sends none when neither does", async () => {
    await poster({ userAgent: 'Default/1' }).post(`http://127.0.0.1:${port}/`, '{}', {
      'user-agent': 'Discord-Interactions/1.0 (+https://discord.com)',
    });
    await poster().post(`http://127.0.0.1:${port}/`, '{}', {});
    expect(received.map((r) => r.headers['user-agent'])).toEqual([
      'Discord-Interactions/1.0 (+https://discord.com)',
      undefined,
    ]);
  });

  it('connects to the address it checked, with the host name in Host', async () => {
    const asked: string[] = [];
    const outcome = await poster({
      resolve: async (host) => {
        asked.push(host);
        return ['127.0.0.1'];
      },
    }).post(`http://bot.example:${port}/interactions`, '{}', {});
    expect(outcome).toMatchObject({ kind: 'answered', status: 200 });
    expect(asked).toEqual(['bot.example']);
    expect(received[0]?.headers.host).toBe(`bot.example:${port}`);
  });

  it('refuses, without connecting, a destination the policy does not allow', async () => {
    await expect(
      poster({ policy: PUBLIC_ONLY }).post(`http://127.0.0.1:${port}/`, '{}', {}),
    ).resolves.toEqual({
      kind: 'refused',
      reason: '127.0.0.1 resolves to 127.0.0.1 is a loopback address',
    });
    // Every address a name resolves to must pass, not only the first.
    const rebinding = poster({ resolve: async () => ['127.0.0.1', '10.1.2.3'] });
    await expect(rebinding.post(`http://bot.example:${port}/`, '{}', {})).resolves.toEqual({
      kind: 'refused',
      reason: 'bot.example resolves to 10.1.2.3 is a private address',
    });
    const metadata = poster({ policy: parseAddressPolicy('loopback,private') });
    await expect(metadata.post('http://169.254.169.254/latest/meta-data', '{}', {})).resolves.toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/link-local/),
    });
    expect(received).toHaveLength(0);
  });

  it('refuses URLs that are invalid, not http(s), or carry credentials', async () => {
    const post = (url: string) => poster().post(url, '{}', {});
    await expect(post('not a url')).resolves.toEqual({ kind: 'refused', reason: 'the URL is not valid' });
    await expect(post(`ftp://127.0.0.1:${port}/`)).resolves.toEqual({
      kind: 'refused',
      reason: 'the URL scheme ftp: is not http or https',
    });
    await expect(post(`http://user:secret@127.0.0.1:${port}/`)).resolves.toEqual({
      kind: 'refused',
      reason: 'the URL carries credentials',
    });
    expect(received).toHaveLength(0);
  });

  it('fails when the name does not resolve', async () => {
    const unknownHost = Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    await expect(
      poster({
        resolve: async () => {
          throw unknownHost;
        },
      }).post('https://nowhere.example/', '{}', {}),
    ).resolves.toEqual({ kind: 'failed', reason: 'nowhere.example does not resolve (ENOTFOUND)' });
    await expect(
      poster({ resolve: async () => [] }).post('https://nowhere.example/', '{}', {}),
    ).resolves.toEqual({
      kind: 'failed',
      reason: 'nowhere.example does not resolve',
    });
  });

  it('answers a redirect as it is, without following it', async () => {
    behaviour = (response) => {
      response.writeHead(307, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
    };
    await expect(poster().post(`http://127.0.0.1:${port}/start`, '{}', {})).resolves.toEqual({
      kind: 'answered',
      status: 307,
      body: '',
    });
    expect(received.map((r) => r.url)).toEqual(['/start']);
  });

  it('keeps the first 16 KiB of a long answer', async () => {
    behaviour = (response) => {
      response.writeHead(200).end('x'.repeat(100_000));
    };
    const outcome = await poster().post(`http://127.0.0.1:${port}/`, '{}', {});
    expect(outcome).toMatchObject({ kind: 'answered', status: 200 });
    expect(outcome.kind === 'answered' && outcome.body.length).toBe(16 * 1024);
  });

  it('keeps as much of an answer as maxAnswerBytes says', async () => {
    behaviour = (response) => {
      response.writeHead(200).end('x'.repeat(100_000));
    };
    const outcome = await poster({ maxAnswerBytes: 64 * 1024 }).post(`http://127.0.0.1:${port}/`, '{}', {});
    expect(outcome.kind === 'answered' && outcome.body.length).toBe(64 * 1024);
  });

  it('fails when no answer comes within the timeout', async () => {
    behaviour = () => 'hang';
    const started = Date.now();
    await expect(poster({ timeoutMs: 200 }).post(`http://127.0.0.1:${port}/`, '{}', {})).resolves.toEqual({
      kind: 'failed',
      reason: 'no answer within 200 ms',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(poster().post(`http://127.0.0.1:${closedPort}/`, '{}', {})).resolves.toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/ECONNREFUSED/),
    });
  });
  it('never shares a pool between destinations that differ in scheme: one app cannot break another’s endpoint', async () => {
    const shared = poster();
    // App A names the (plain HTTP) receiver with https: its TLS handshake fails...
    await expect(shared.post(`https://127.0.0.1:${port}/`, '{}', {})).resolves.toMatchObject({
      kind: 'failed',
    });
    // ...and app B's correct http URL to the same address and port still answers.
    await expect(shared.post(`http://127.0.0.1:${port}/`, '{}', {})).resolves.toMatchObject({
      kind: 'answered',
      status: 200,
    });
    await expect(shared.post(`https://127.0.0.1:${port}/`, '{}', {})).resolves.toMatchObject({
      kind: 'failed',
    });
    expect(shared.poolCount).toBe(2);
  });

  it('keeps a bounded number of pools, the least recently used closed first, and closes idle ones', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `app${i}.example`);
    const bounded = poster({ maxPools: 3, resolve: async () => ['127.0.0.1'] });
    for (const name of names) {
      await expect(bounded.post(`http://${name}:${port}/`, '{}', {})).resolves.toMatchObject({ status: 200 });
      expect(bounded.poolCount).toBeLessThanOrEqual(3);
    }
    expect(received.map((r) => r.headers.host)).toEqual(names.map((name) => `${name}:${port}`));
    const idle = poster({ poolIdleMs: 50, resolve: async () => ['127.0.0.1'] });
    await idle.post(`http://idle.example:${port}/`, '{}', {});
    expect(idle.poolCount).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(idle.poolCount).toBe(0);
  });

  it('answers a failure instead of throwing, whatever the headers', async () => {
    await expect(
      poster().post(`http://127.0.0.1:${port}/`, '{}', { 'x-bad': 'a\nb' }),
    ).resolves.toMatchObject({
      kind: 'failed',
    });
    await expect(
      poster().post(`http://127.0.0.1:${port}/`, '{}', { 'bad header': 'x' }),
    ).resolves.toMatchObject({
      kind: 'failed',
    });
  });
});
