import { Pool } from 'pg';
import { PERMISSION_FLAGS as P } from '@acs/validation';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { createSnowflakeGenerator } from '@acs/snowflake';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { DB_SCHEMA } from '../../src/config';
import { readCreateMessage } from '../../src/domain/channel-messages';
import { readReactionEmoji } from '../../src/domain/reactions';
import { ChannelMessageStore, type ChannelPlace } from '../../src/store/channel-message-store';
import { ReactionStore } from '../../src/store/reaction-store';
import { TEST_SIGNER } from '../support/test-signer';

const GUILD = '1600000000000000100';
const CHANNEL = '1600000000000000200';
const BOT = '1600000000000000010';
const USERS = Array.from({ length: 8 }, (_, i) => String(1600000000000000020n + BigInt(i)));

let db: TestDatabase;
let pool: Pool;
let messages: ChannelMessageStore;
let reactions: ReactionStore;

const place = (userId: string): ChannelPlace => ({
  channelId: CHANNEL,
  caller: { userId, applicationId: userId === BOT ? BOT : null },
  access: {
    guildId: GUILD,
    isMember: true,
    permissions: P.VIEW_CHANNEL | P.SEND_MESSAGES | P.READ_MESSAGE_HISTORY | P.ADD_REACTIONS,
    recipientIds: [],
  },
});

function send(body: Record<string, unknown>, userId = BOT) {
  return messages.create({
    ...place(userId),
    request: readCreateMessage(body, [], CHANNEL),
    author: { id: userId, username: 'someone' },
    mentionedUsers: [],
    baseUrl: '',
  });
}

async function outboxNames(): Promise<string[]> {
  const { rows } = await pool.query<{ subject: string }>('SELECT subject FROM outbox ORDER BY seq');
  return rows.map((row) => row.subject);
}

beforeAll(async () => {
  db = await createTestDatabase(['interactions']);
  pool = new Pool({ connectionString: serviceDatabaseUrl(db.url, DB_SCHEMA) });
  messages = new ChannelMessageStore(
    pool,
    createSnowflakeGenerator({ workerId: 7, processId: 1 }),
    TEST_SIGNER,
  );
  reactions = new ReactionStore(pool);
}, 60_000);
afterAll(async () => {
  await pool.end();
  await db.drop();
});

it('makes one message of racing sends of one enforced nonce, with one MESSAGE_CREATE', async () => {
  const before = (await outboxNames()).length;
  const body = { content: 'once', nonce: 'race-1', enforce_nonce: true };
  const sent = await Promise.all(Array.from({ length: 6 }, () => send(body)));
  expect(new Set(sent.map((message) => message.id)).size).toBe(1);
  const { rows } = await pool.query('SELECT id FROM message WHERE nonce = $1', ['race-1']);
  expect(rows).toHaveLength(1);
  expect((await outboxNames()).slice(before)).toEqual(['acs.interactions.channel_message.created']);
  // Another author's same nonce is theirs.
  expect((await send(body, USERS[0])).id).not.toBe(sent[0]!.id);
});

it('counts racing reactions exactly, and announces each user once', async () => {
  const target = await send({ content: 'react to me' });
  const thumbs = readReactionEmoji('👍');
  const before = (await outboxNames()).length;
  await Promise.all([...USERS, ...USERS].map((userId) => reactions.add(place(userId), target.id, thumbs)));
  const read = await messages.get(CHANNEL, target.id);
  expect(read.reactions).toEqual([expect.objectContaining({ count: USERS.length, me: false })]);
  const added = (await outboxNames()).slice(before);
  expect(added).toEqual(USERS.map(() => 'acs.interactions.reaction.added'));
  const [seen] = await reactions.seenBy(USERS[3]!, [read]);
  expect(seen!.reactions![0]!.me).toBe(true);

  await Promise.all(USERS.map((userId) => reactions.remove(place(userId), target.id, thumbs, userId)));
  expect(await messages.get(CHANNEL, target.id)).not.toHaveProperty('reactions');
});

it('bulk-deletes the known messages of the channel only, in one event', async () => {
  const a = await send({ content: 'a' });
  const b = await send({ content: 'b' });
  const moderator = {
    ...place(USERS[1]!),
    access: { ...place(USERS[1]!).access, permissions: P.VIEW_CHANNEL | P.MANAGE_MESSAGES },
  };
  const before = (await outboxNames()).length;
  await messages.bulkRemove(moderator, [a.id, b.id, '1600000000000009999']);
  expect((await outboxNames()).slice(before)).toEqual(['acs.interactions.channel_message.bulk_deleted']);
  const { rows } = await pool.query<{ payload: { data: { message_ids: string[] } } }>(
    'SELECT payload FROM outbox ORDER BY seq DESC LIMIT 1',
  );
  expect(rows[0]!.payload.data.message_ids).toEqual([a.id, b.id]);
  await expect(messages.get(CHANNEL, a.id)).rejects.toMatchObject({ code: 10008 });
  // Nothing left of the list: nothing announced.
  await messages.bulkRemove(moderator, [a.id, b.id]);
  expect((await outboxNames()).length).toBe(before + 1);
});
