import type { Pool, PoolClient } from 'pg';
import { insertOutboxSql, outboxNotifySql } from '@acs/events';
import { StatementParameters, withTransaction } from '@acs/service-kit';
import type { SnowflakeGenerator } from '@acs/snowflake';
import { DB_SCHEMA } from '../config';
import { admitMembers, type OverLimit } from '../domain/admit-members';
import { checkMayLink } from '../domain/check-may-link';
import { checkMessageAccess } from '../domain/check-message-access';
import { channelTakenError, UnknownLobbyError, UnknownMessageError } from '../domain/lobby-errors';
import { lobbyDeletedEvent, lobbyStateEvent, memberEvents, type MemberChange } from '../domain/lobby-events';
import { DEFAULT_IDLE_TIMEOUT_SECONDS, HISTORY_WINDOW_MS, SECRET_LIFETIME_MS } from '../domain/lobby-limits';
import type { JsonRecord, LobbyRecord, MemberRecord } from '../domain/lobby-objects';
import { planJoinEvents, planJoinMember } from '../domain/plan-join';
import { planLobbyMessage } from '../domain/plan-lobby-message';
import { planBulkMembers, planMembersReplacement } from '../domain/plan-member-changes';
import { planModeration } from '../domain/plan-moderation';
import type { JoinInput, LobbyInput, MemberInput, MessageInput } from '../domain/read-lobby-bodies';
import { jsonOrNull } from './json-or-null';
import { MEMBER_COLUMNS, memberOf, type MemberRow } from './lobby-rows';
import { deleteMembers, readOccupancy, upsertMembers } from './member-writes';
import { readLobby } from './read-lobby';
import { lobbyEventRow, writeLobbyEvents } from './write-lobby-events';

/** The author of a message: a member's user, or the application's bot. */
export interface MessageAuthor {
  userId: string;
  user: JsonRecord;
  bot: boolean;
}

/** A guild channel a lobby links to, as permissions described it. */
export interface ChannelLink {
  channelId: string;
  guildId: string;
  channel: JsonRecord;
}

/** How many times a join by secret starts over when its lobby vanishes under it. */
const JOIN_ATTEMPTS = 3;

/** PostgreSQL's unique_violation and foreign_key_violation. */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Lobbies, members and messages of every application (schema `lobby`): each change reads
 * what its planner (`domain/`) needs, and applies the plan (rows and events) in one
 * transaction. A lobby is found only by its own application and only while it is not past
 * its idle timeout: anything else is 404 / 10031.
 */
export class LobbyStore {
  /** SQL of "now + the lobby's idle timeout", with `$1` the length of one idle second in ms. */
  private readonly idleEnd = `now() + idle_timeout_seconds * $1::int * interval '1 millisecond'`;

  constructor(
    private readonly pool: Pool,
    private readonly ids: SnowflakeGenerator,
    /** How long one second of `idle_timeout_seconds` lasts (a test setting; 1000). */
    private readonly idleSecondMs = 1000,
  ) {}

  /** The lobby, or 404 / 10031. */
  async get(applicationId: string, lobbyId: string): Promise<LobbyRecord> {
    const db = await this.pool.connect();
    try {
      return await readLobby(db, applicationId, lobbyId, false);
    } finally {
      db.release();
    }
  }

  /** POST /lobbies: the new lobby with the members that fit. */
  async create(applicationId: string, input: LobbyInput): Promise<LobbyRecord> {
    return withTransaction(this.pool, async (db) => {
      const id = this.ids.next();
      await db.query(
        `INSERT INTO lobby (id, application_id, metadata, flags, idle_timeout_seconds, override_event_webhooks_url, expires_at)
         VALUES ($2, $3, $4, $5, $6, $7, now() + $6::int * $1::int * interval '1 millisecond')`,
        [
          this.idleSecondMs,
          id,
          applicationId,
          jsonOrNull(input.metadata),
          input.flags ?? 0,
          input.idleTimeoutSeconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS,
          input.overrideEventWebhooksUrl ?? null,
        ],
      );
      await this.admitMembers(db, applicationId, id, input.members ?? [], 'drop');
      const lobby = await readLobby(db, applicationId, id, false);
      await writeLobbyEvents(db, [lobbyStateEvent('lobby.lobby.created', lobby)]);
      return lobby;
    });
  }

  /**
   * PUT /lobbies: the application's lobby of `secret` (created when there is none, or when
   * the one it named expired), the caller (a user; a bot joins nothing) a member of it.
   * Two callers with one new secret at once end in one lobby: the second insert waits for
   * the first on the unique (application, secret) and then finds its lobby. Should that
   * lobby be deleted between the two statements, the join starts over (and creates it).
   */
  async join(applicationId: string, userId: string | null, input: JoinInput): Promise<LobbyRecord> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.joinOnce(applicationId, userId, input);
      } catch (error) {
        if (!(error instanceof LobbyVanished) || attempt === JOIN_ATTEMPTS) throw error;
      }
    }
  }

  /** One attempt of `join`; LobbyVanished (nothing written) when the secret's lobby was deleted under it. */
  private async joinOnce(
    applicationId: string,
    userId: string | null,
    input: JoinInput,
  ): Promise<LobbyRecord> {
    return withTransaction(this.pool, async (db) => {
      await db.query(
        `UPDATE lobby SET secret = NULL
          WHERE application_id = $1 AND secret = $2 AND (secret_expires_at <= now() OR expires_at <= now())`,
        [applicationId, input.secret],
      );
      const inserted = await db.query<{ id: string }>(
        `INSERT INTO lobby (id, application_id, metadata, idle_timeout_seconds, secret, secret_expires_at, expires_at)
         VALUES ($2, $3, $4, $5, $6, now() + $7::bigint * interval '1 millisecond',
                 now() + $5::int * $1::int * interval '1 millisecond')
         ON CONFLICT (application_id, secret) DO NOTHING RETURNING id::text`,
        [
          this.idleSecondMs,
          this.ids.next(),
          applicationId,
          jsonOrNull(input.lobbyMetadata),
          input.idleTimeoutSeconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS,
          input.secret,
          SECRET_LIFETIME_MS,
        ],
      );
      const created = inserted.rows[0];
      let lobbyId: string;
      if (created) lobbyId = created.id;
      else {
        // The lobby of the secret (a concurrent creator's, now committed): its settings overwritten when given.
        const found = await db.query<{ id: string }>(
          `UPDATE lobby SET
             metadata = CASE WHEN $4 THEN $5::jsonb ELSE metadata END,
             idle_timeout_seconds = COALESCE($6, idle_timeout_seconds),
             expires_at = now() + COALESCE($6, idle_timeout_seconds) * $1::int * interval '1 millisecond'
           WHERE application_id = $2 AND secret = $3 RETURNING id::text`,
          [
            this.idleSecondMs,
            applicationId,
            input.secret,
            input.lobbyMetadata !== undefined,
            jsonOrNull(input.lobbyMetadata),
            input.idleTimeoutSeconds ?? null,
          ],
        );
        const row = found.rows[0];
        if (!row) throw new LobbyVanished();
        lobbyId = row.id;
      }
      let changes: MemberChange[] = [];
      if (userId !== null) {
        const existing = await db.query<MemberRow>(
          `SELECT ${MEMBER_COLUMNS} FROM lobby_member WHERE lobby_id = $1 AND user_id = $2`,
          [lobbyId, userId],
        );
        const old = existing.rows[0];
        const member = planJoinMember(userId, input, old && memberOf(old));
        changes = await this.admitMembers(db, applicationId, lobbyId, [member], 'refuse');
      }
      const lobby = await readLobby(db, applicationId, lobbyId, false);
      await writeLobbyEvents(db, planJoinEvents(created !== undefined, input, lobby, changes));
      return lobby;
    });
  }

  /** PATCH /lobbies/{id}: the fields given overwrite; `members`, when given, replaces the list. */
  async update(applicationId: string, lobbyId: string, input: LobbyInput): Promise<LobbyRecord> {
    return withTransaction(this.pool, async (db) => {
      const before = await readLobby(db, applicationId, lobbyId, true);
      await db.query(
        `UPDATE lobby SET
           metadata = CASE WHEN $3 THEN $4::jsonb ELSE metadata END,
           idle_timeout_seconds = COALESCE($5, idle_timeout_seconds),
           flags = COALESCE($6, flags),
           override_event_webhooks_url = CASE WHEN $7 THEN $8 ELSE override_event_webhooks_url END,
           expires_at = now() + COALESCE($5, idle_timeout_seconds) * $1::int * interval '1 millisecond'
         WHERE id = $2`,
        [
          this.idleSecondMs,
          lobbyId,
          input.metadata !== undefined,
          jsonOrNull(input.metadata),
          input.idleTimeoutSeconds ?? null,
          input.flags ?? null,
          input.overrideEventWebhooksUrl !== undefined,
          input.overrideEventWebhooksUrl ?? null,
        ],
      );
      let changes: MemberChange[] = [];
      let removed: MemberRecord[] = [];
      if (input.members !== undefined) {
        const plan = planMembersReplacement(before, input.members);
        removed = plan.removed;
        await deleteMembers(
          db,
          lobbyId,
          removed.map((m) => m.userId),
        );
        changes = await this.admitMembers(db, applicationId, lobbyId, plan.upserts, 'drop');
      }
      const lobby = await readLobby(db, applicationId, lobbyId, false);
      await writeLobbyEvents(db, [
        lobbyStateEvent('lobby.lobby.updated', lobby),
        ...memberEvents(lobby, changes, removed),
      ]);
      return lobby;
    });
  }

  /** DELETE /lobbies/{id}: idempotent (a lobby already gone, or another application's, is left as is). */
  async remove(applicationId: string, lobbyId: string): Promise<void> {
    await withTransaction(this.pool, async (db) => {
      const gone = await db.query<{ id: string; user_ids: string[] | null }>(
        `WITH members AS (SELECT array_agg(user_id::text) AS ids FROM lobby_member WHERE lobby_id = $1)
         DELETE FROM lobby WHERE id = $1 AND application_id = $2
         RETURNING id::text, (SELECT ids FROM members) AS user_ids`,
        [lobbyId, applicationId],
      );
      const row = gone.rows[0];
      if (row) {
        const lobby = { id: row.id, applicationId };
        await writeLobbyEvents(db, [lobbyDeletedEvent(lobby, row.user_ids ?? [], 'deleted')]);
      }
    });
  }

  /** PUT /lobbies/{id}/members/{user}: the member, added or updated. */
  async putMember(applicationId: string, lobbyId: string, member: MemberInput): Promise<MemberRecord> {
    return withTransaction(this.pool, async (db) => {
      await readLobby(db, applicationId, lobbyId, true);
      const changes = await this.admitMembers(db, applicationId, lobbyId, [member], 'refuse');
      const lobby = await readLobby(db, applicationId, lobbyId, false);
      await writeLobbyEvents(db, memberEvents(lobby, changes, []));
      return (changes[0] as MemberChange).member;
    });
  }

  /**
   * Every lobby the user is a member of, in any application. For a user's deletion, which
   * is rare and off the request path: no index serves a lookup by user alone.
   */
  async membershipsOf(userId: string): Promise<Array<{ applicationId: string; lobbyId: string }>> {
    const { rows } = await this.pool.query<{ application_id: string; lobby_id: string }>(
      `SELECT application_id::text, lobby_id::text FROM "lobby"."lobby_member" WHERE user_id = $1`,
      [userId],
    );
    return rows.map((row) => ({ applicationId: row.application_id, lobbyId: row.lobby_id }));
  }

  /** DELETE /lobbies/{id}/members/{user} (and @me): idempotent for the member, 10031 for the lobby. */
  async removeMember(applicationId: string, lobbyId: string, userId: string): Promise<void> {
    await withTransaction(this.pool, async (db) => {
      const before = await readLobby(db, applicationId, lobbyId, true);
      const removed = before.members.filter((m) => m.userId === userId);
      if (removed.length === 0) return;
      await deleteMembers(db, lobbyId, [userId]);
      await this.touch(db, lobbyId);
      const lobby = await readLobby(db, applicationId, lobbyId, false);
      await writeLobbyEvents(db, memberEvents(lobby, [], removed));
    });
  }

  /** POST /lobbies/{id}/members/bulk: removes and upserts; answers the upserted members that fit. */
  async bulk(applicationId: string, lobbyId: string, members: MemberInput[]): Promise<MemberRecord[]> {
    return withTransaction(this.pool, async (db) => {
      const before = await readLobby(db, applicationId, lobbyId, true);
      const plan = planBulkMembers(before, members);
      await deleteMembers(
        db,
        lobbyId,
        plan.removed.map((m) => m.userId),
      );
      const changes = await this.admitMembers(db, applicationId, lobbyId, plan.upserts, 'drop');
      const lobby = await readLobby(db, applicationId, lobbyId, false);
      await writeLobbyEvents(db, memberEvents(lobby, changes, plan.removed));
      return changes.map((c) => c.member);
    });
  }

  /**
   * POST /lobbies/{id}/messages: the message, by a member (or the application's bot).
   * One statement stores it, keeps the lobby alive and writes its event.
   */
  async createMessage(
    applicationId: string,
    lobbyId: string,
    author: MessageAuthor,
    input: MessageInput,
  ): Promise<JsonRecord> {
    const found = await this.pool.query<{
      member: boolean;
      additional_name: string | null;
      user_ids: string[] | null;
      override_event_webhooks_url: string | null;
      linked_channel_id: string | null;
      linked_guild_id: string | null;
    }>(
      `SELECT m.user_id IS NOT NULL AS member, m.additional_name, l.override_event_webhooks_url,
              l.linked_channel_id::text, l.linked_channel->>'guild_id' AS linked_guild_id,
              (SELECT json_agg(user_id::text) FROM lobby_member WHERE lobby_id = l.id) AS user_ids
         FROM lobby l LEFT JOIN lobby_member m ON m.lobby_id = l.id AND m.user_id = $3
        WHERE l.id = $1 AND l.application_id = $2 AND l.expires_at > now()`,
      [lobbyId, applicationId, author.userId],
    );
    const lobby = found.rows[0];
    if (!lobby) throw new UnknownLobbyError();
    const { message, event } = planLobbyMessage(
      {
        id: lobbyId,
        applicationId,
        isMember: lobby.member,
        additionalName: lobby.additional_name,
        userIds: lobby.user_ids ?? [],
        overrideEventWebhooksUrl: lobby.override_event_webhooks_url,
        linkedChannel:
          lobby.linked_channel_id !== null && lobby.linked_guild_id !== null
            ? { guild_id: lobby.linked_guild_id, channel_id: lobby.linked_channel_id }
            : null,
      },
      author,
      input,
      this.ids.next(),
    );
    // The lobby's timer moves at most once per idle second: a busy lobby is not one hot row.
    // A lobby removed meanwhile fails the insert's foreign key: it is unknown.
    const params = new StatementParameters();
    const idleSecond = params.add(this.idleSecondMs);
    const idleEnd = `now() + idle_timeout_seconds * ${idleSecond}::int * interval '1 millisecond'`;
    const id = params.add(lobbyId);
    await this.pool
      .query(
        `WITH stored AS (
         INSERT INTO lobby_message (id, lobby_id, message) VALUES (${params.add(message.id)}, ${id}, ${params.add(JSON.stringify(message))})),
       touched AS (
         UPDATE lobby SET expires_at = ${idleEnd}
          WHERE id = ${id} AND expires_at < ${idleEnd} - ${idleSecond}::int * interval '1 millisecond'),
       events AS (${insertOutboxSql(params, DB_SCHEMA, [lobbyEventRow(event)])})
       ${outboxNotifySql(DB_SCHEMA)}`,
        params.values,
      )
      .catch((error: unknown) => {
        throw (error as { code?: string }).code === FOREIGN_KEY_VIOLATION ? new UnknownLobbyError() : error;
      });
    return message;
  }

  /**
   * GET /lobbies/{id}/messages: the newest `limit` of the last 72 hours, newest first, as
   * JSON text (PostgreSQL renders the array: 200 messages are not parsed and rendered again).
   */
  async listMessages(
    applicationId: string,
    lobbyId: string,
    caller: { userId: string; bot: boolean },
    limit: number,
  ): Promise<string> {
    const found = await this.pool.query<{ member: boolean }>(
      `SELECT m.user_id IS NOT NULL AS member
         FROM lobby l LEFT JOIN lobby_member m ON m.lobby_id = l.id AND m.user_id = $3
        WHERE l.id = $1 AND l.application_id = $2 AND l.expires_at > now()`,
      [lobbyId, applicationId, caller.userId],
    );
    const lobby = found.rows[0];
    if (!lobby) throw new UnknownLobbyError();
    checkMessageAccess(caller, lobby.member);
    const rows = await this.pool.query<{ json: string }>(
      `SELECT COALESCE(json_agg(m.message ORDER BY m.id DESC), '[]')::text AS json
         FROM (SELECT id, CASE WHEN moderation_metadata IS NULL THEN message
                               ELSE message || jsonb_build_object('moderation_metadata', moderation_metadata) END AS message
                 FROM lobby_message
                WHERE lobby_id = $1 AND created_at > now() - $2::bigint * interval '1 millisecond'
                ORDER BY id DESC LIMIT $3) AS m`,
      [lobbyId, HISTORY_WINDOW_MS, limit],
    );
    return (rows.rows[0] as { json: string }).json;
  }

  /** PUT …/messages/{id}/moderation-metadata: sets it (LOBBY_MESSAGE_UPDATE). */
  async setModeration(
    applicationId: string,
    lobbyId: string,
    messageId: string,
    metadata: Record<string, string>,
  ): Promise<void> {
    await withTransaction(this.pool, async (db) => {
      const lobby = await readLobby(db, applicationId, lobbyId, false);
      const updated = await db.query<{ message: JsonRecord; created_at: Date }>(
        `UPDATE lobby_message SET moderation_metadata = $3 WHERE id = $1 AND lobby_id = $2
         RETURNING message, created_at`,
        [messageId, lobbyId, JSON.stringify(metadata)],
      );
      const row = updated.rows[0];
      if (!row) throw new UnknownMessageError();
      const stored = { message: row.message, createdAt: row.created_at };
      await writeLobbyEvents(db, [planModeration(lobby, stored, metadata, new Date())]);
    });
  }

  /**
   * PATCH …/channel-linking by a member with CanLinkLobby: links `link` (null unlinks). A
   * channel linked to another lobby is refused (400 / 50035 on `channel_id`).
   */
  async link(
    applicationId: string,
    lobbyId: string,
    userId: string,
    link: ChannelLink | null,
  ): Promise<LobbyRecord> {
    return withTransaction(this.pool, async (db) => {
      const before = await readLobby(db, applicationId, lobbyId, true);
      checkMayLink(before, userId);
      try {
        await db.query('SAVEPOINT link');
        await db.query(
          `UPDATE lobby SET linked_channel_id = $3, linked_channel = $4, expires_at = ${this.idleEnd} WHERE id = $2`,
          [this.idleSecondMs, lobbyId, link?.channelId ?? null, link ? JSON.stringify(link.channel) : null],
        );
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
        await db.query('ROLLBACK TO SAVEPOINT link');
        throw channelTakenError();
      }
      const lobby = await readLobby(db, applicationId, lobbyId, false);
      await writeLobbyEvents(db, [lobbyStateEvent('lobby.lobby.updated', lobby)]);
      return lobby;
    });
  }

  /** The lobby, when `userId` may link or unlink it (a member with CanLinkLobby): 403 / 50001 if not. */
  async assertMayLink(applicationId: string, lobbyId: string, userId: string): Promise<LobbyRecord> {
    const lobby = await this.get(applicationId, lobbyId);
    checkMayLink(lobby, userId);
    return lobby;
  }

  /**
   * Removes up to `batch` lobbies past their idle timeout (LOBBY_DELETE to their members)
   * and messages older than 72 hours; answers how many lobbies went.
   */
  async sweep(batch = 500): Promise<number> {
    const removed = await withTransaction(this.pool, async (db) => {
      const gone = await db.query<{ id: string; application_id: string; user_ids: string[] | null }>(
        `WITH idle AS (SELECT id FROM lobby WHERE expires_at <= now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED),
              members AS (SELECT lobby_id, array_agg(user_id::text) AS ids FROM lobby_member
                           WHERE lobby_id IN (SELECT id FROM idle) GROUP BY lobby_id),
              deleted AS (DELETE FROM lobby WHERE id IN (SELECT id FROM idle) RETURNING id, application_id)
         SELECT d.id::text, d.application_id::text, m.ids AS user_ids
           FROM deleted d LEFT JOIN members m ON m.lobby_id = d.id`,
        [batch],
      );
      await writeLobbyEvents(
        db,
        gone.rows.map((r) =>
          lobbyDeletedEvent({ id: r.id, applicationId: r.application_id }, r.user_ids ?? [], 'deleted'),
        ),
      );
      return gone.rowCount ?? 0;
    });
    await this.pool.query(
      `DELETE FROM lobby_message WHERE created_at <= now() - $1::bigint * interval '1 millisecond'`,
      [HISTORY_WINDOW_MS],
    );
    return removed;
  }

  /**
   * Upserts the members admitMembers lets in (the lobby row locked by the caller) and keeps
   * the lobby alive; answers what changed.
   */
  private async admitMembers(
    db: PoolClient,
    applicationId: string,
    lobbyId: string,
    members: readonly MemberInput[],
    overLimit: OverLimit,
  ): Promise<MemberChange[]> {
    if (members.length === 0) return [];
    const occupancy = await readOccupancy(
      db,
      applicationId,
      lobbyId,
      members.map((m) => m.id),
    );
    const accepted = admitMembers(members, occupancy, overLimit);
    if (accepted.length === 0) return [];
    const changes = await upsertMembers(db, applicationId, lobbyId, accepted);
    await this.touch(db, lobbyId);
    return changes;
  }

  /** Moves the lobby's idle timer to now. */
  private async touch(db: PoolClient, lobbyId: string): Promise<void> {
    await db.query(`UPDATE lobby SET expires_at = ${this.idleEnd} WHERE id = $2`, [
      this.idleSecondMs,
      lobbyId,
    ]);
  }
}

/** The lobby a join found by its secret was deleted before the join could update it. */
class LobbyVanished extends UnknownLobbyError {}
