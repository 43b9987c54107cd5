import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { DB_SCHEMA } from '../../src/config';
import { formatInteractionToken, hashInteractionToken } from '../../src/domain/interaction-token';
import { InteractionStore, type NewInteraction } from '../../src/store/interaction-store';

/** A store on a fresh database of its own, as a test file needs it. */
export interface OpenInteractionStore {
  db: TestDatabase;
  pool: Pool;
  store: InteractionStore;
  close(): Promise<void>;
}

/** Opens an InteractionStore on a new database with the interactions migrations. */
export async function openInteractionStore(windows = { deadlineMs: 3000, tokenTtlSeconds: 900 }) {
  const db = await createTestDatabase(['interactions']);
  const pool = new Pool({ connectionString: serviceDatabaseUrl(db.url, DB_SCHEMA), max: 20 });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
  return {
    db,
    pool,
    store: new InteractionStore(pool, windows),
    async close() {
      await pool.end();
      await db.drop();
    },
  } satisfies OpenInteractionStore;
}

let next = 1800000000000000000n;

/** A fresh interaction id. */
export function nextId(): string {
  next += 1n;
  return next.toString();
}

/** An interaction to record: a guild invocation delivered over the gateway. */
export function newInteraction(overrides: Partial<NewInteraction> = {}): NewInteraction {
  const id = overrides.id ?? nextId();
  const token = formatInteractionToken(id, randomBytes(32).toString('hex'));
  const payload = { id, application_id: '1500000000000000001', type: 2, data: { name: 'ping' } };
  return {
    id,
    applicationId: '1500000000000000001',
    type: 2,
    userId: '1500000000000000004',
    guildId: '1500000000000000002',
    channelId: '1500000000000000003',
    commandId: '1500000000000000005',
    commandName: 'ping',
    commandType: 1,
    messageId: null,
    sessionId: null,
    nonce: null,
    tokenHash: hashInteractionToken(token),
    delivery: 'gateway',
    userInstallOnly: false,
    recipientIds: [],
    payload,
    botPayload: { ...payload, token },
    ...overrides,
  };
}

/** The outbox's events, oldest first, as `{subject, data}`. */
export async function outboxEvents(
  pool: Pool,
): Promise<{ subject: string; data: Record<string, unknown> }[]> {
  const rows = await pool.query<{ subject: string; payload: { data: Record<string, unknown> } }>(
    'SELECT subject, payload FROM outbox ORDER BY seq',
  );
  return rows.rows.map((r) => ({ subject: r.subject, data: r.payload.data }));
}
