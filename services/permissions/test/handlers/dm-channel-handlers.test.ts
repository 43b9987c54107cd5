import type { permissions } from '@acs/protos';
import { callUnary } from '@acs/service-kit';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { errorOf } from '../support/errors';
import { createStoreFixture, type StoreFixture } from '../support/test-database';

// OpenDmChannel over gRPC against PostgreSQL: the one DM of two users, group DMs, and the
// body's errors as Discord answers them.

const ALICE = '1000';
const BOB = '2000';
const CAROL = '3000';
const BOT = '4000';

let db: StoreFixture;
let server: TestServer;
let client: permissions.PermissionsServiceClient;

beforeAll(async () => {
  db = await createStoreFixture();
  server = await startTestServer(db);
  client = server.client;
});

afterAll(async () => {
  await server?.close();
  await db?.close();
});

const open = async (userId: string, body: unknown, applicationId = '') => {
  const answer = await callUnary(client, client.OpenDmChannel, {
    user_id: userId,
    body_json: typeof body === 'string' ? body : JSON.stringify(body),
    application_id: applicationId,
  });
  return { channel: JSON.parse(answer.channel_json), recipientIds: answer.recipient_ids };
};
const errorTreeOf = async (userId: string, body: unknown) => {
  const error = await errorOf(open(userId, body));
  expect({ status: error.httpStatus, code: error.code }).toEqual({ status: 400, code: 50035 });
  return error.errors;
};

describe('OpenDmChannel', () => {
  it('opens the one DM of two users: the same channel on every call, from either side', async () => {
    const first = await open(ALICE, { recipient_id: BOB });
    expect(first.channel).toEqual({ id: expect.any(String), type: 1, last_message_id: null, flags: 0 });
    expect(first.recipientIds).toEqual([ALICE, BOB]);

    expect(await open(ALICE, { recipient_id: BOB })).toEqual(first);
    expect(await open(BOB, { recipient_id: Number(ALICE) })).toEqual(first);
    // The chat client's form: a one-element `recipients` list is the DM, not a group.
    expect(await open(BOB, { recipients: [ALICE] })).toEqual(first);
    // Another pair has another DM.
    const other = await open(ALICE, { recipient_id: BOT });
    expect(other.channel.id).not.toBe(first.channel.id);
    expect(other.recipientIds).toEqual([ALICE, BOT]);
  });

  it('makes one DM when both users open it at the same moment', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        open(i % 2 === 0 ? CAROL : BOT, { recipient_id: i % 2 === 0 ? BOT : CAROL }),
      ),
    );
    expect(new Set(answers.map((a) => a.channel.id)).size).toBe(1);
    const rows = await db.prisma.dmChannel.count({
      where: { userLow: BigInt(CAROL), userHigh: BigInt(BOT) },
    });
    expect(rows).toBe(1);
    expect(await db.prisma.dmRecipient.count({ where: { channelId: BigInt(answers[0]!.channel.id) } })).toBe(
      2,
    );
  });

  it('opens a new group DM for several recipients, owned by the caller', async () => {
    const group = await open(ALICE, { recipients: [CAROL, BOB] });
    expect(group.channel).toEqual({
      id: expect.any(String),
      type: 3,
      last_message_id: null,
      flags: 0,
      name: null,
      icon: null,
      owner_id: ALICE,
    });
    expect(group.recipientIds).toEqual([ALICE, BOB, CAROL]);
    const again = await open(ALICE, { recipients: [CAROL, BOB] });
    expect(again.channel.id).not.toBe(group.channel.id);
    // `recipients` wins over `recipient_id` when both are given.
    expect((await open(ALICE, { recipient_id: BOT, recipients: [BOB, CAROL] })).channel.type).toBe(3);
  });

  it('marks a group DM a bot opens with its application (application_id, managed), also when read back', async () => {
    const group = await open(BOT, { recipients: [ALICE, BOB] }, BOT);
    expect(group.channel).toEqual({
      id: expect.any(String),
      type: 3,
      last_message_id: null,
      flags: 0,
      name: null,
      icon: null,
      owner_id: BOT,
      application_id: BOT,
      managed: true,
    });
    const stored = await db.dmChannels.getDmChannel(group.channel.id);
    expect(stored?.applicationId).toBe(BOT);
    // A DM has no application, whoever opens it.
    const dm = await open(BOT, { recipient_id: CAROL }, BOT);
    expect(dm.channel).not.toHaveProperty('application_id');
    // A malformed application id is refused before anything is written.
    const error = await errorOf(open(BOT, { recipients: [ALICE, BOB] }, 'app'));
    expect({ status: error.httpStatus, code: error.code }).toEqual({ status: 400, code: 50035 });
  });

  it('refuses a DM with oneself, and a group DM naming the caller, with 50033', async () => {
    for (const body of [{ recipient_id: ALICE }, { recipients: [ALICE] }, { recipients: [BOB, ALICE] }]) {
      const error = await errorOf(open(ALICE, body));
      expect({ status: error.httpStatus, code: error.code, message: error.message }).toEqual({
        status: 400,
        code: 50033,
        message: 'Invalid Recipient(s)',
      });
    }
    expect(await db.prisma.dmChannel.count({ where: { ownerId: BigInt(BOB) } })).toBe(0);
  });

  it('answers a bad body with the 50035 tree at the field', async () => {
    expect(await errorTreeOf(ALICE, {})).toEqual({
      recipient_id: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
    });
    expect(await errorTreeOf(ALICE, { recipient_id: 'bob' })).toEqual({
      recipient_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "bob" is not snowflake.' }] },
    });
    expect(await errorTreeOf(ALICE, { recipients: BOB })).toEqual({
      recipients: {
        _errors: [{ code: 'LIST_TYPE_CONVERT', message: 'Only iterables may be used in a ListType' }],
      },
    });
    const badLength = {
      recipients: {
        _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 9 in length.' }],
      },
    };
    expect(await errorTreeOf(ALICE, { recipients: [] })).toEqual(badLength);
    const ten = Array.from({ length: 10 }, (_, i) => String(5000 + i));
    expect(await errorTreeOf(ALICE, { recipients: ten })).toEqual(badLength);
    expect(await errorTreeOf(ALICE, { recipients: [BOB, 'x', BOB] })).toEqual({
      recipients: {
        1: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "x" is not snowflake.' }] },
        2: {
          _errors: [
            { code: 'SET_TYPE_ALREADY_CONTAINS_VALUE', message: 'The set already contains this value' },
          ],
        },
      },
    });
    expect(await errorTreeOf(ALICE, [BOB])).toEqual({
      _errors: [{ code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }],
    });
    const malformed = await errorOf(open(ALICE, '{"recipient_id": '));
    expect({ status: malformed.httpStatus, code: malformed.code }).toEqual({ status: 400, code: 50109 });
    expect(await errorTreeOf('me', { recipient_id: BOB })).toEqual({
      user_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "me" is not snowflake.' }] },
    });
  });
});
