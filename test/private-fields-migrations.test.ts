import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@acs/testing';

/**
 * Issue 28, finding 1: the rows stored before the fix held a lobby message's author whole
 * (e-mail, verified, MFA, locale, premium type, `bot: false`). Each service's
 * `…_public_authors` migration strips them; this writes such rows into a migrated database
 * and runs the migrations' SQL over them again (they are idempotent), as an upgrade would.
 */

const MIGRATION = '20270107000000_public_authors';
const SERVICES = ['lobby', 'interactions', 'dispatcher'];
const WHOLE = {
  id: '1400000000000000001',
  username: 'alice',
  discriminator: '0',
  global_name: null,
  bot: false,
  mfa_enabled: false,
  locale: 'fr',
  premium_type: 0,
  email: 'alice@private.test',
  verified: true,
};
const SHOWN = { id: WHOLE.id, username: 'alice', discriminator: '0', global_name: null };
const BOT = { id: '1400000000000000002', username: 'game', discriminator: '0000', bot: true };

let db: TestDatabase;
let client: Client;

const migrationSql = (service: string) =>
  fs.readFileSync(
    path.join(__dirname, '..', 'services', service, 'prisma', 'migrations', MIGRATION, 'migration.sql'),
    'utf8',
  );
const event = (id: string, author: unknown) =>
  JSON.stringify({
    id,
    type: 'message.created',
    occurred_at: '2027-01-01T00:00:00.000Z',
    data: { message: { id: '9', author } },
  });

beforeAll(async () => {
  db = await createTestDatabase(SERVICES);
  client = new Client({ connectionString: db.url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await db?.drop();
});

it('strips the private fields of stored lobby message authors, and keeps bots and public fields as they were', async () => {
  await client.query(
    `INSERT INTO lobby.lobby (id, application_id, idle_timeout_seconds, expires_at) VALUES (1, 2, 300, now() + interval '1 hour')`,
  );
  await client.query(
    `INSERT INTO lobby.lobby_message (id, lobby_id, message) VALUES (10, 1, $1), (11, 1, $2)`,
    [JSON.stringify({ id: '10', content: 'hi', author: WHOLE }), JSON.stringify({ id: '11', author: BOT })],
  );
  await client.query(
    `INSERT INTO lobby.outbox (id, subject, payload) VALUES ('e1', 'acs.lobby.message.created', $1)`,
    [event('e1', WHOLE)],
  );
  await client.query(
    `INSERT INTO interactions.message (id, application_id, channel_id, is_original, flags, body, lobby_message_id)
     VALUES (20, 2, 3, false, 0, $1, 10)`,
    [JSON.stringify({ id: '20', content: 'hi', author: WHOLE })],
  );
  await client.query(
    `INSERT INTO interactions.outbox (id, subject, payload) VALUES ('e2', 'acs.interactions.message.created', $1)`,
    [event('e2', WHOLE)],
  );
  await client.query(
    `INSERT INTO dispatcher.webhook_delivery (event_id, application_id, event_type, url, body)
     VALUES ('e3', 2, 'LOBBY_MESSAGE_CREATE', 'https://example.test/events', $1)`,
    [
      JSON.stringify({
        version: 1,
        type: 1,
        event: { type: 'LOBBY_MESSAGE_CREATE', data: { id: '10', author: WHOLE } },
      }),
    ],
  );

  for (const service of SERVICES) await client.query(migrationSql(service));

  const one = async (sql: string) => (await client.query<{ v: any }>(sql)).rows.map((r) => r.v);
  expect(await one('SELECT message AS v FROM lobby.lobby_message ORDER BY id')).toEqual([
    { id: '10', content: 'hi', author: SHOWN },
    { id: '11', author: BOT },
  ]);
  expect(await one(`SELECT payload->'data'->'message'->'author' AS v FROM lobby.outbox`)).toEqual([SHOWN]);
  expect(await one('SELECT body AS v FROM interactions.message')).toEqual([
    { id: '20', content: 'hi', author: SHOWN },
  ]);
  expect(await one(`SELECT payload->'data'->'message'->'author' AS v FROM interactions.outbox`)).toEqual([
    SHOWN,
  ]);
  expect(
    await one(`SELECT body::jsonb->'event'->'data'->'author' AS v FROM dispatcher.webhook_delivery`),
  ).toEqual([SHOWN]);
});
