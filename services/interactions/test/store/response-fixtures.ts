import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { createSnowflakeGenerator, type SnowflakeGenerator } from '@acs/snowflake';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { DB_SCHEMA } from '../../src/config';
import { formatInteractionToken, hashInteractionToken } from '../../src/domain/interaction-token';
import { MessageStore } from '../../src/store/message-store';
import { TraceStore } from '../../src/store/trace-store';
import { ResponseStore } from '../../src/store/response-store';
import type { InteractionRecord } from '../../src/store/interaction-record';
import { TEST_SIGNER } from '../support/test-signer';

export const APP = '1500000000000000001';
export const OTHER_APP = '1500000000000000002';
export const GUILD = '1500000000000000100';
export const CHANNEL = '1500000000000000200';
export const USER = {
  id: '1500000000000000010',
  username: 'alice',
  discriminator: '0',
  avatar: null,
  global_name: 'Alice',
};
export const BOT = {
  id: APP,
  username: 'Pinger',
  discriminator: '0000',
  avatar: null,
  bot: true,
  global_name: null,
};

/** The stores on a fresh database of their own, as a test file needs them. */
export interface ResponseContext {
  db: TestDatabase;
  pool: Pool;
  ids: SnowflakeGenerator;
  responses: ResponseStore;
  traces: TraceStore;
  messages: MessageStore;
  /** The blob keys the message store released (attachments an edit or a deletion removed), in order. */
  released: string[];
  close(): Promise<void>;
}

let worker = 0;

/** Opens the response and message stores on a new database with this service's migrations. */
export async function openResponseStores(): Promise<ResponseContext> {
  const db = await createTestDatabase(['interactions']);
  const pool = new Pool({ connectionString: serviceDatabaseUrl(db.url, DB_SCHEMA), max: 20 });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
  const ids = createSnowflakeGenerator({ workerId: worker++ % 32, processId: 2 });
  const released: string[] = [];
  return {
    db,
    pool,
    ids,
    responses: new ResponseStore(pool, ids, TEST_SIGNER),
    traces: new TraceStore(pool),
    messages: new MessageStore(pool, ids, TEST_SIGNER, (keys) => released.push(...keys)),
    released,
    async close() {
      await pool.end();
      await db.drop();
    },
  };
}

/** How a recorded interaction differs from a fresh slash command invocation in a guild. */
export interface InteractionFixture {
  applicationId?: string;
  /** 2 APPLICATION_COMMAND (default) or 4 APPLICATION_COMMAND_AUTOCOMPLETE. */
  type?: number;
  guildId?: string | null;
  recipientIds?: string[];
  state?: 'pending' | 'acknowledged' | 'failed';
  userInstallOnly?: boolean;
  /** Milliseconds from now to the response deadline (negative: passed). */
  deadlineMs?: number;
  /** Milliseconds from now to the token's expiry (negative: expired). */
  ttlMs?: number;
  sessionId?: string | null;
  nonce?: string | null;
  data?: Record<string, unknown>;
  /** The invoker's permissions in the channel (`member.permissions`), in a guild. */
  memberPermissions?: string;
}

/** A recorded interaction and its token. */
export interface RecordedInteraction {
  id: string;
  token: string;
  record: () => Promise<InteractionRecord>;
}

/**
 * Records an interaction row as the invocation path does (only the token's hash kept),
 * with the interaction object the app received as payload.
 */
export async function recordInteraction(
  ctx: ResponseContext,
  fixture: InteractionFixture = {},
): Promise<RecordedInteraction> {
  const id = ctx.ids.next();
  const token = formatInteractionToken(id, randomBytes(32).toString('hex'));
  const applicationId = fixture.applicationId ?? APP;
  const type = fixture.type ?? 2;
  const guildId = fixture.guildId === undefined ? GUILD : fixture.guildId;
  const data = fixture.data ?? { id: '1500000000000000300', name: 'ping', type: 1 };
  const payload = {
    id,
    application_id: applicationId,
    type,
    data,
    ...(guildId !== null
      ? {
          guild_id: guildId,
          member: {
            user: USER,
            roles: [],
            ...(fixture.memberPermissions === undefined ? {} : { permissions: fixture.memberPermissions }),
          },
        }
      : { user: USER }),
    channel_id: CHANNEL,
    authorizing_integration_owners: fixture.userInstallOnly ? { '1': USER.id } : { '0': guildId ?? '0' },
    version: 1,
  };
  await ctx.pool.query(
    `INSERT INTO interaction (id, application_id, type, user_id, guild_id, channel_id, command_id,
       command_name, command_type, session_id, nonce, token_hash, delivery, state, user_install_only,
       recipient_ids, payload, deadline_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'gateway', $13, $14, $15, $16,
       now() + make_interval(secs => $17 / 1000.0), now() + make_interval(secs => $18 / 1000.0))`,
    [
      id,
      applicationId,
      type,
      USER.id,
      guildId,
      CHANNEL,
      data.id ?? null,
      String(data.name ?? 'ping'),
      Number(data.type ?? 1),
      fixture.sessionId ?? null,
      fixture.nonce ?? null,
      hashInteractionToken(token),
      fixture.state ?? 'pending',
      fixture.userInstallOnly ?? false,
      fixture.recipientIds ?? [],
      JSON.stringify(payload),
      fixture.deadlineMs ?? 3000,
      fixture.ttlMs ?? 900_000,
    ],
  );
  return {
    id,
    token,
    record: async () => {
      const found = await ctx.responses.find(id);
      if (!found) throw new Error(`interaction ${id} not recorded`);
      return found;
    },
  };
}

/** The outbox rows of one interaction's events and messages, oldest first, as subject + data. */
export async function eventsOf(
  ctx: ResponseContext,
  match: { interactionId?: string; messageIds?: string[] },
): Promise<Array<{ subject: string; data: Record<string, unknown> }>> {
  const { rows } = await ctx.pool.query<{ subject: string; payload: { data: Record<string, unknown> } }>(
    'SELECT subject, payload FROM outbox ORDER BY seq',
  );
  return rows
    .map((row) => ({ subject: row.subject, data: row.payload.data }))
    .filter(({ data }) => {
      const message = data.message as { id?: string; interaction_metadata?: { id?: string } } | undefined;
      return (
        (match.interactionId !== undefined &&
          (data.interaction_id === match.interactionId ||
            message?.interaction_metadata?.id === match.interactionId)) ||
        (match.messageIds !== undefined &&
          (match.messageIds.includes(String(data.message_id)) ||
            match.messageIds.includes(String(message?.id))))
      );
    });
}
