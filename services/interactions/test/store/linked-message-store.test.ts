import { Pool } from 'pg';
import type { ReceivedEvent } from '@acs/events';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { createSnowflakeGenerator } from '@acs/snowflake';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { DB_SCHEMA } from '../../src/config';
import { postLinkedLobbyMessages } from '../../src/events/post-linked-lobby-messages';
import { LinkedMessageStore } from '../../src/store/linked-message-store';

const APP = '1500000000000000001';
const GUILD = '1500000000000000100';
const CHANNEL = '1500000000000000200';
const LOBBY = '1500000000000000300';
const author = {
  id: '1500000000000000010',
  username: 'alice',
  discriminator: '0',
  avatar: null,
  global_name: null,
};

let db: TestDatabase;
let pool: Pool;
let handle: ReturnType<typeof postLinkedLobbyMessages>;

beforeAll(async () => {
  db = await createTestDatabase(['interactions']);
  pool = new Pool({ connectionString: serviceDatabaseUrl(db.url, DB_SCHEMA) });
  handle = postLinkedLobbyMessages(
    new LinkedMessageStore(pool, createSnowflakeGenerator({ workerId: 6, processId: 1 })),
  );
}, 60_000);
afterAll(async () => {
  await pool.end();
  await db.drop();
});

function lobbyMessageEvent(id: string, linked: boolean): ReceivedEvent<'lobby.message.created'> {
  return {
    id: `event-${id}`,
    name: 'lobby.message.created',
    occurredAt: new Date().toISOString(),
    subject: 'acs.lobby.message.created',
    data: {
      application_id: APP,
      lobby_id: LOBBY,
      user_ids: [author.id],
      message: {
        id,
        type: 0,
        content: `lobby says ${id}`,
        lobby_id: LOBBY,
        channel_id: LOBBY,
        author,
        flags: 65536,
        application_id: APP,
        metadata: { secret: 'x' },
      },
      override_event_webhooks_url: null,
      linked_channel: linked ? { guild_id: GUILD, channel_id: CHANNEL } : null,
    },
  } as unknown as ReceivedEvent<'lobby.message.created'>;
}

it('posts a linked lobby’s message to its channel once, with MESSAGE_CREATE, and nothing for an unlinked lobby', async () => {
  await handle(lobbyMessageEvent('1500000000000000401', true));
  await handle(lobbyMessageEvent('1500000000000000401', true));
  await handle(lobbyMessageEvent('1500000000000000402', false));
  const messages = await pool.query(
    `SELECT channel_id::text, guild_id::text, interaction_id, body FROM message`,
  );
  expect(messages.rows).toHaveLength(1);
  const [row] = messages.rows;
  expect(row).toMatchObject({ channel_id: CHANNEL, guild_id: GUILD, interaction_id: null });
  expect(row.body).toMatchObject({
    type: 0,
    content: 'lobby says 1500000000000000401',
    channel_id: CHANNEL,
    author,
  });
  expect(row.body).not.toHaveProperty('metadata');
  const events = await pool.query(`SELECT subject, payload FROM outbox`);
  expect(events.rows.map((r) => r.subject)).toEqual(['acs.interactions.message.created']);
  expect(events.rows[0].payload.data).toMatchObject({
    channel_id: CHANNEL,
    guild_id: GUILD,
    ephemeral_user_id: null,
    message: { id: row.body.id },
  });
});
