import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { startEntryPoint, type EntryPoint } from '../src/entry-point';

// The entry point of `npm start -- --replicas N`, against stand-in replicas: HTTP servers
// that answer their own name, and WebSocket servers that send theirs on connection.

interface Replica {
  port: number;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function httpReplica(name: string): Promise<Replica> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        name,
        url: req.url,
        forwardedFor: req.headers['x-forwarded-for'] ?? null,
        connection: req.headers.connection ?? null,
        remotePort: req.socket.remotePort,
      }),
    );
  });
  const port = await listen(server);
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function wsReplica(name: string): Promise<Replica> {
  const server = http.createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, req) => socket.send(JSON.stringify({ name, url: req.url })));
  const port = await listen(server);
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => server.close(() => resolve()));
      }),
  };
}

/** Connects to `url` and resolves with the first message: which replica took the connection. */
function firstMessage(url: string): Promise<{ name: string; url: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('message', (data) => {
      socket.close();
      resolve(JSON.parse(data.toString()));
    });
    socket.once('error', reject);
  });
}

let replicas: Replica[];
let httpTargets: Array<number | undefined>;
let gatewayTargets: Array<number | undefined>;
let entry: EntryPoint;
let lines: string[];

beforeEach(async () => {
  replicas = [
    await httpReplica('api-1'),
    await httpReplica('api-2'),
    await wsReplica('ws-1'),
    await wsReplica('ws-2'),
  ];
  httpTargets = [replicas[0]!.port, replicas[1]!.port];
  gatewayTargets = [replicas[2]!.port, replicas[3]!.port];
  lines = [];
  entry = await startEntryPoint({
    host: '127.0.0.1',
    ports: { http: 0, gateway: 0 },
    httpTargets: () => httpTargets,
    gatewayTargets: () => gatewayTargets,
    say: (line) => lines.push(line),
  });
});

afterEach(async () => {
  await entry.close();
  await Promise.all(replicas.map((r) => r.close()));
});

const get = async (
  path: string,
): Promise<{ status: number; replica: string | null; body: Record<string, unknown> }> => {
  const response = await fetch(`http://127.0.0.1:${entry.ports.http}${path}`);
  return {
    status: response.status,
    replica: response.headers.get('x-acs-replica'),
    body: (await response.json()) as Record<string, unknown>,
  };
};

it('sends HTTP requests to the api-gateways in turn, naming the one that answered', async () => {
  const answers = [];
  for (let i = 0; i < 4; i += 1) answers.push(await get(`/api/v10/gateway?n=${i}`));
  expect(answers.map((a) => [a.status, a.replica, a.body['name']])).toEqual([
    [200, '1', 'api-1'],
    [200, '2', 'api-2'],
    [200, '1', 'api-1'],
    [200, '2', 'api-2'],
  ]);
  // The path and query pass unchanged; the client is named for the replica.
  expect(answers[3]!.body).toMatchObject({ url: '/api/v10/gateway?n=3', forwardedFor: '127.0.0.1' });
});

it('keeps connections alive on both hops, to the client and to the api-gateways', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ask = (): Promise<{
    connection: string | undefined;
    localPort: number;
    body: Record<string, unknown>;
  }> =>
    new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: entry.ports.http, path: '/k', agent }, (res) => {
          // The socket goes back to the agent once the response has ended: read it now.
          const localPort = res.socket.localPort ?? 0;
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () =>
            resolve({
              connection: res.headers.connection,
              localPort,
              body: JSON.parse(text) as Record<string, unknown>,
            }),
          );
        })
        .on('error', reject);
    });
  const answers = [];
  for (let i = 0; i < 4; i += 1) answers.push(await ask());
  agent.destroy();
  // The client's one connection serves all four.
  expect(answers.map((a) => a.connection)).toEqual(['keep-alive', 'keep-alive', 'keep-alive', 'keep-alive']);
  expect(new Set(answers.map((a) => a.localPort)).size).toBe(1);
  // Each api-gateway is asked over a kept-alive connection: the same one both times.
  expect(answers.map((a) => a.body['connection'])).not.toContain('close');
  expect(answers[2]!.body['remotePort']).toBe(answers[0]!.body['remotePort']);
  expect(answers[3]!.body['remotePort']).toBe(answers[1]!.body['remotePort']);
});

it('skips a replica that does not run, and answers 502 (a Discord-shaped body) when the one chosen is unreachable', async () => {
  httpTargets = [undefined, replicas[1]!.port];
  const answers = [await get('/a'), await get('/b')];
  expect(answers.map((a) => a.body['name'])).toEqual(['api-2', 'api-2']);

  await replicas[1]!.close();
  const down = await get('/c');
  expect(down).toMatchObject({ status: 502, body: { code: 0, message: '502: Bad Gateway' } });
  expect(lines.join('\n')).toMatch(/replica 2 did not answer GET \/c/);

  httpTargets = [undefined, undefined];
  expect(await get('/d')).toMatchObject({ status: 503, body: { code: 0 } });
});

it('spreads WebSocket connections over the dispatchers, and keeps /replica/<i> on dispatcher i while it runs', async () => {
  const gateway = `ws://127.0.0.1:${entry.ports.gateway}`;
  const spread = [];
  for (let i = 0; i < 4; i += 1) spread.push((await firstMessage(`${gateway}/?v=10&encoding=json`)).name);
  expect(spread).toEqual(['ws-1', 'ws-2', 'ws-1', 'ws-2']);

  // A resume URL, as clients use it (discord.js appends `?v=10…`, others `/?v=10…`).
  for (const path of ['/replica/2?v=10', '/replica/2/?v=10', '/replica/2', '/replica/2?v=10']) {
    expect(await firstMessage(`${gateway}${path}`)).toEqual({ name: 'ws-2', url: path });
  }
  // Not a replica's path: round-robin as usual.
  expect((await firstMessage(`${gateway}/replica/22x`)).name).toMatch(/^ws-[12]$/);

  // Its dispatcher gone: another takes the connection (and answers the Resume with Invalid Session).
  gatewayTargets = [gatewayTargets[0], undefined];
  expect((await firstMessage(`${gateway}/replica/2?v=10`)).name).toBe('ws-1');
});
