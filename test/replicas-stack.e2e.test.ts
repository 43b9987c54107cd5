import { createDemoWorld, startTestStack, type DemoWorld, type TestStack } from './support';
import { ChatUser } from './support/chat-user';
import { GatewayTestClient, type Received } from './helpers/gateway-client';

/**
 * `npm start -- --replicas 2`: two api-gateways and two dispatchers behind one entry point
 * (infra/src/entry-point.js). HTTP requests are spread over the api-gateways, gateway
 * sessions over the dispatchers; a Resume comes back to its session's dispatcher through
 * READY's resume_gateway_url; events cross replicas (an invocation made through either
 * api-gateway reaches a bot on either dispatcher).
 */
let stack: TestStack;
let world: DemoWorld;
let gatewayUrl: string;
const clients: GatewayTestClient[] = [];
const users: ChatUser[] = [];

beforeAll(async () => {
  stack = await startTestStack({
    replicas: 2,
    // The tests identify the same bot several times in a row.
    env: { IDENTIFY_CONCURRENCY_WINDOW_MS: '1' },
  });
  world = await createDemoWorld(stack);
  const bot = await get('/gateway/bot', world.application.botToken);
  gatewayUrl = bot.body.url;
});

afterEach(() => {
  for (const client of clients.splice(0)) client.close(1000);
});

afterAll(async () => {
  for (const user of users) user.close();
  await stack?.stop();
});

/** A public API GET through the entry point: status, body and the api-gateway replica that answered. */
async function get(path: string, botToken?: string): Promise<{ status: number; body: any; replica: string }> {
  const response = await fetch(`${stack.apiUrl}/api/v10${path}`, {
    headers: botToken ? { Authorization: `Bot ${botToken}` } : {},
  });
  return {
    status: response.status,
    body: await response.json(),
    replica: response.headers.get('x-acs-replica') ?? '',
  };
}

async function connect(url = gatewayUrl): Promise<GatewayTestClient> {
  const client = await GatewayTestClient.connect(url);
  clients.push(client);
  return client;
}

/** Identifies the demo bot through `url`: the client, its session and the dispatcher replica it landed on. */
async function identifyBot(url = gatewayUrl) {
  const client = await connect(url);
  const ready = await client.identify(world.application.botToken);
  const resumeUrl: string = ready.d.resume_gateway_url;
  return { client, ready, resumeUrl, replica: resumeUrl.slice(`${gatewayUrl}/replica/`.length) };
}

/** Opens a socket to `url` and sends Resume for the session: the first answer (RESUMED or Invalid Session). */
async function resume(url: string, sessionId: string, seq: number): Promise<Received> {
  const client = await connect(url);
  await client.next((p) => p.op === 10);
  client.send({ op: 6, d: { token: `Bot ${world.application.botToken}`, session_id: sessionId, seq } });
  return client.next((p) => p.t === 'RESUMED' || p.op === 9, 10_000);
}

const lastSeq = (client: GatewayTestClient) => Math.max(0, ...client.received.map((p) => p.s ?? 0));

it('runs two of each edge, and spreads HTTP requests over both api-gateways', async () => {
  const names = stack.processes.map((p) => p.name);
  expect(names).toEqual(
    expect.arrayContaining(['api-gateway#1', 'api-gateway#2', 'dispatcher#1', 'dispatcher#2']),
  );
  expect(names.filter((n) => n.startsWith('api-gateway'))).toHaveLength(2);
  // Bots are given the entry point's gateway, not a replica's own port.
  expect(gatewayUrl).toBe(`ws://127.0.0.1:${stack.ports.gateway}`);

  const answers = await Promise.all(
    Array.from({ length: 6 }, () => get('/gateway/bot', world.application.botToken)),
  );
  for (const answer of answers) {
    expect(answer.status).toBe(200);
    expect(answer.body.url).toBe(gatewayUrl);
  }
  expect(new Set(answers.map((a) => a.replica))).toEqual(new Set(['1', '2']));

  // Each replica on a port of its own, behind the entry point's.
  const own = stack.replicaApiUrls;
  expect(new Set([...own, stack.apiUrl]).size).toBe(3);
  for (const url of own) expect((await fetch(`${url}/readyz`)).status).toBe(200);
});

it('spreads gateway sessions over both dispatchers', async () => {
  const sessions = [await identifyBot(), await identifyBot()];
  // Each dispatcher gives its own resume_gateway_url: consecutive sessions are on both.
  expect(new Set(sessions.map((s) => s.replica))).toEqual(new Set(['1', '2']));
  for (const s of sessions) expect(s.resumeUrl).toBe(`${gatewayUrl}/replica/${s.replica}`);
});

it('resumes a session on its dispatcher through resume_gateway_url, whichever the entry point would pick next', async () => {
  // Two resumes in a row: the round-robin alone would send one of them to the other dispatcher.
  const session = await identifyBot();
  let seq = lastSeq(session.client);
  let previous = session.client;
  for (let round = 0; round < 2; round += 1) {
    previous.close(4000); // not 1000: the session waits for a resume
    await previous.closed;
    const resumed = await resume(session.resumeUrl, session.ready.d.session_id, seq);
    expect(resumed.t).toBe('RESUMED');
    previous = clients[clients.length - 1] as GatewayTestClient;
    seq = lastSeq(previous);
  }

  // The other dispatcher does not hold the session: Invalid Session, not resumable (the
  // client identifies anew, as after its dispatcher's death).
  previous.close(4000);
  await previous.closed;
  const other = session.replica === '1' ? '2' : '1';
  const elsewhere = await resume(`${gatewayUrl}/replica/${other}`, session.ready.d.session_id, seq);
  expect(elsewhere).toMatchObject({ op: 9, d: false });
});

it("delivers a user's invocation made through either api-gateway to the bot on either dispatcher", async () => {
  const put = await fetch(
    `${stack.apiUrl}/api/v10/applications/${world.application.id}/guilds/${world.guild.id}/commands`,
    {
      method: 'PUT',
      headers: { Authorization: `Bot ${world.application.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify([{ name: 'ping', description: 'Replies with pong' }]),
    },
  );
  expect(put.status).toBe(200);
  const [command] = (await put.json()) as any[];
  const user = await (await ChatUser.open(stack, world.user.id)).connect();
  users.push(user);

  /** Invokes /ping through the entry point: the api-gateway replica that took it, and the interaction's nonce. */
  const invoke = async () => {
    const nonce = user.nonce();
    const response = await fetch(`${stack.apiUrl}/api/v10/interactions`, {
      method: 'POST',
      headers: { Authorization: user.token, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        nonce,
        session_id: user.sessionId,
        type: 2,
        application_id: world.application.id,
        guild_id: world.guild.id,
        channel_id: world.channel.id,
        data: { id: command.id, name: command.name, type: 1, version: command.version },
      }),
    });
    expect(response.status).toBe(204);
    return { replica: response.headers.get('x-acs-replica'), nonce };
  };

  for (const dispatcher of ['1', '2']) {
    // The bot's one session, on this dispatcher (the path picks it, as a resume URL does).
    const bot = await identifyBot(`${gatewayUrl}/replica/${dispatcher}`);
    expect(bot.replica).toBe(dispatcher);
    const through = new Set<string | null>();
    for (let attempt = 0; attempt < 6 && through.size < 2; attempt += 1) {
      const from = bot.client.received.length;
      const { replica, nonce } = await invoke();
      const created = await bot.client.next(
        (p) => p.t === 'INTERACTION_CREATE' && p.d.data?.id === command.id,
        15_000,
        from,
      );
      expect(created.d).toMatchObject({ application_id: world.application.id, guild_id: world.guild.id });
      // The user's session saw its own invocation with the same nonce: this is the one.
      await user.gateway!.next((p) => p.t === 'INTERACTION_CREATE' && p.d.nonce === nonce, 15_000);
      through.add(replica);
    }
    expect(through).toEqual(new Set(['1', '2']));
    bot.client.close(1000);
  }
});

it('sends a Resume for a dead dispatcher to a live one (Invalid Session), and takes a restarted one back', async () => {
  const session = await identifyBot(`${gatewayUrl}/replica/2`);
  expect(session.replica).toBe('2');
  const dispatcher = stack.processes.find((p) => p.name === 'dispatcher#2')!;
  await dispatcher.stop();
  await session.client.closed;

  // Its resume URL now leads to dispatcher 1, which does not hold the session.
  const resumed = await resume(session.resumeUrl, session.ready.d.session_id, lastSeq(session.client));
  expect(resumed).toMatchObject({ op: 9, d: false });
  // New sessions all go to the one left.
  expect((await identifyBot()).replica).toBe('1');
  expect((await identifyBot()).replica).toBe('1');

  await stack.restart('dispatcher#2');
  const sessions = [await identifyBot(), await identifyBot()];
  expect(new Set(sessions.map((s) => s.replica))).toEqual(new Set(['1', '2']));
});
