import { connect, type NatsConnection } from 'nats';
import { createEvent, publishedSubject, type EventName, type EventPayload } from '@acs/events';
import { findTestServers } from '@acs/testing';
import { createGuild, createUser, startTestStack, type TestStack } from './support';
import { GatewayTestClient, type Received } from './helpers/gateway-client';

/**
 * A user's chat client on the whole stack: the session token from the admin API resolved
 * by oauth, READY with the guilds permissions lists, and messages of the interactions
 * service (published on the stack's stream as its relay does) reaching exactly the users
 * permissions lets view the channel.
 */

const VIEW_CHANNEL = 1 << 10;

let stack: TestStack;
let nats: NatsConnection;
let gatewayUrl: string;
const clients: GatewayTestClient[] = [];

beforeAll(async () => {
  stack = await startTestStack({
    // Each user identifies once here; the limits on Identify have their own tests.
    env: { IDENTIFY_CONCURRENCY_WINDOW_MS: '1' },
  });
  nats = await connect({ servers: (await findTestServers()).natsUrl });
  gatewayUrl = ((await (await fetch(`${stack.apiUrl}/api/v10/gateway`)).json()) as { url: string }).url;
});

afterEach(() => {
  for (const client of clients.splice(0)) client.close(1000);
});

afterAll(async () => {
  await nats?.close();
  await stack?.stop();
});

/** A chat-client session token of the user (POST /admin/users/{id}/sessions). */
async function sessionToken(userId: string): Promise<string> {
  const created = await stack.admin('POST', `/admin/users/${userId}/sessions`, {});
  expect(created.status).toBe(201);
  return (created.body as { token: string }).token;
}

/** Identifies as the official client does (a session token, `capabilities`, no intents); READY. */
async function identifyAsUser(token: string): Promise<{ client: GatewayTestClient; ready: Received }> {
  const client = await GatewayTestClient.connect(gatewayUrl);
  clients.push(client);
  const ready = await client.identify(token, { intents: undefined, capabilities: 16381 });
  return { client, ready };
}

/** Publishes an event on the stack's stream as its producer's relay does. */
async function publish<N extends EventName>(name: N, data: EventPayload<N>): Promise<void> {
  const row = createEvent(name, data);
  await nats
    .jetstream()
    .publish(publishedSubject(row.subject, stack.events.subjectPrefix), JSON.stringify(row.payload), {
      msgID: row.id,
    });
}

describe("a user's chat-client session", () => {
  it('identifies with its session token, and sees the messages of the channels it may view', async () => {
    const owner = await createUser(stack, { username: 'owner' });
    const member = await createUser(stack, { username: 'member' });
    const outsider = await createUser(stack, { username: 'outsider' });
    const guild = await createGuild(stack, { name: 'Chat Guild', owner_id: owner.id });
    expect((await stack.admin('PUT', `/admin/guilds/${guild.id}/members/${member.id}`, {})).status).toBe(201);
    const channel = async (name: string, deniedTo?: string) => {
      const created = await stack.admin('POST', `/admin/guilds/${guild.id}/channels`, {
        name,
        type: 0,
        permission_overwrites: deniedTo ? [{ id: deniedTo, type: 1, deny: String(VIEW_CHANNEL) }] : [],
      });
      expect(created.status).toBe(201);
      return (created.body as { id: string }).id;
    };
    const open = await channel('open');
    const secret = await channel('secret', member.id);

    const sessions = {
      owner: await identifyAsUser(await sessionToken(owner.id)),
      member: await identifyAsUser(await sessionToken(member.id)),
      outsider: await identifyAsUser(await sessionToken(outsider.id)),
    };
    expect(sessions.member.ready.d).toMatchObject({
      v: 10,
      user: { id: member.id, username: 'member' },
      session_type: 'normal',
      // Behind the entry point of replicas, its dispatcher's own (a Resume must reach it).
      resume_gateway_url:
        stack.replicas > 1 ? expect.stringMatching(`^${gatewayUrl}/replica/\\d+$`) : gatewayUrl,
    });
    expect(sessions.member.ready.d).not.toHaveProperty('application');
    expect(sessions.owner.ready.d.guilds).toEqual([
      expect.objectContaining({ id: guild.id, name: 'Chat Guild', owner: true, unavailable: false }),
    ]);
    expect(sessions.member.ready.d.guilds).toEqual([expect.objectContaining({ id: guild.id, owner: false })]);
    expect(sessions.outsider.ready.d.guilds).toEqual([]);

    const message = (channelId: string, id: string) => ({
      application_id: '1',
      channel_id: channelId,
      guild_id: guild.id,
      ephemeral_user_id: null,
      recipient_ids: [],
      message: { id, channel_id: channelId, content: `in ${channelId}`, type: 20, flags: 0 },
    });
    await publish('interactions.message.created', message(open, '1000000000000000001'));
    await publish('interactions.message.created', message(secret, '1000000000000000002'));
    // A last event for each user: once it came, the messages before it came or never will.
    for (const user of [owner, member, outsider]) {
      await publish('interactions.interaction.failed', {
        interaction_id: '1000000000000000009',
        application_id: '1',
        user_id: user.id,
        session_id: null,
        nonce: user.id,
        guild_id: guild.id,
        channel_id: open,
        reason_code: 1,
      });
    }
    // Behind replicated dispatchers, events of different messages may arrive in either
    // order: wait for the messages a user should see (and the last event), compare as sets.
    const seen = async ({ client }: { client: GatewayTestClient }, count: number) => {
      await client.next((p) => p.t === 'INTERACTION_FAILURE', 20_000);
      const messages = () => client.received.filter((p) => p.t === 'MESSAGE_CREATE');
      for (const deadline = Date.now() + 10_000; messages().length < count && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return messages()
        .map((p) => [p.d.channel_id, p.d.guild_id])
        .sort(([a], [b]) => String(a).localeCompare(String(b)));
    };
    expect(await seen(sessions.owner, 2)).toEqual(
      [
        [open, guild.id],
        [secret, guild.id],
      ].sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
    expect(await seen(sessions.member, 1)).toEqual([[open, guild.id]]);
    expect(await seen(sessions.outsider, 0)).toEqual([]);
  });

  it('closes with 4004 for a session token oauth does not know', async () => {
    const client = await GatewayTestClient.connect(gatewayUrl);
    clients.push(client);
    await client.next((p) => p.op === 10);
    client.send({
      op: 2,
      d: { token: 'not-a-session-token-of-anyone', capabilities: 16381, properties: {} },
    });
    expect((await client.closed).code).toBe(4004);
  });
});
