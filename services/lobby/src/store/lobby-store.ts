import type { Pool, PoolClient } from 'pg';
import { createEvent, insertOutboxSql, outboxNotifySql, writeOutboxRows, type OutboxRow } from '@acs/events';
import { StatementParameters, withTransaction } from '@acs/service-kit';
import type { SnowflakeGenerator } from '@acs/snowflake';
import { DB_SCHEMA } from '../config';
import {
  channelTakenError,
  limitReachedError,
  NotLobbyMemberError,
  UnknownLobbyError,
  UnknownMessageError,
} from '../domain/lobby-errors';
import {
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  HISTORY_WINDOW_MS,
  MAX_LOBBIES_PER_USER,
  MAX_MEMBERS,
  SECRET_LIFETIME_MS,
  CAN_LINK_LOBBY,
} from '../domain/lobby-limits';
import {
  memberEvent,
  renderGatewayLobby,
  renderLobbyMessage,
  type JsonRecord,
  type LobbyRecord,
  type MemberRecord,
} from '../domain/lobby-objects';
import type { JoinInput, LobbyInput, MemberInput, MessageInput } from '../domain/read-lobby-bodies';
import {
  LOBBY_COLUMNS,
  lobbyOf,
  MEMBER_COLUMNS,
  memberOf,
  type LobbyRow,
  type MemberRow,
} from './lobby-rows';

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

/** How members that do not fit are treated: refused (one user added) or dropped (lists, bulk; B5). */
type OverLimit = 'refuse' | 'drop';

/** How many times a join by secret starts over when its lobby vanishes under it. */
const JOIN_ATTEMPTS = 3;

/** PostgreSQL's unique_violation and foreign_key_violation. */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Lobbies, members and messages of every application (schema `lobby`), each change in one
 * transaction with its events. A lobby is found only by its own application and only
 * while it is not past its idle timeout: anything else is 404 / 10031.
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
      return await this.read(db, applicationId, lobbyId, false);
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
      await this.upsertMembers(db, applicationId, id, input.members ?? [], 'drop');
      const lobby = await this.read(db, applicationId, id, false);
      await writeOutboxRows(db, DB_SCHEMA, [this.lobbyEvent('lobby.lobby.created', lobby)]);
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
      const events: OutboxRow[] = [];
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
        const member: MemberInput = {
          id: userId,
          metadata: input.memberMetadata !== undefined ? input.memberMetadata : (old?.metadata ?? null),
          flags: old?.flags ?? 0,
          additionalName: undefined,
          remove: false,
        };
        changes = await this.upsertMembers(db, applicationId, lobbyId, [member], 'refuse');
      }
      const lobby = await this.read(db, applicationId, lobbyId, false);
      if (created) events.push(this.lobbyEvent('lobby.lobby.created', lobby));
      else {
        if (input.lobbyMetadata !== undefined || input.idleTimeoutSeconds !== undefined) {
          events.push(this.lobbyEvent('lobby.lobby.updated', lobby));
        }
        events.push(...this.memberEvents(lobby, changes, []));
      }
      await writeOutboxRows(db, DB_SCHEMA, events);
      return lobby;
    });
  }

  /** PATCH /lobbies/{id}: the fields given overwrite; `members`, when given, replaces the list. */
  async update(applicationId: string, lobbyId: string, input: LobbyInput): Promise<LobbyRecord> {
    return withTransaction(this.pool, async (db) => {
      await this.read(db, applicationId, lobbyId, true);
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
        const keep = input.members.map((m) => m.id);
        const gone = await db.query<MemberRow>(
          `DELETE FROM lobby_member WHERE lobby_id = $1 AND NOT (user_id = ANY($2::bigint[]))
           RETURNING ${MEMBER_COLUMNS}`,
          [lobbyId, keep],
        );
        removed = gone.rows.map(memberOf);
        changes = await this.upsertMembers(db, applicationId, lobbyId, input.members, 'drop');
      }
      const lobby = await this.read(db, applicationId, lobbyId, false);
      await writeOutboxRows(db, DB_SCHEMA, [
        this.lobbyEvent('lobby.lobby.updated', lobby),
        ...this.memberEvents(lobby, changes, removed),
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
        await writeOutboxRows(db, DB_SCHEMA, [this.deletedEvent(lobby, row.user_ids ?? [], 'deleted')]);
      }
    });
  }

  /** PUT /lobbies/{id}/members/{user}: the member, added or updated. */
  async putMember(applicationId: string, lobbyId: string, member: MemberInput): Promise<MemberRecord> {
    return withTransaction(this.pool, async (db) => {
      await this.read(db, applicationId, lobbyId, true);
      const changes = await this.upsertMembers(db, applicationId, lobbyId, [member], 'refuse');
      const lobby = await this.read(db, applicationId, lobbyId, false);
      await writeOutboxRows(db, DB_SCHEMA, this.memberEvents(lobby, changes, []));
      return (changes[0] as MemberChange).member;
    });
  }

  /** DELETE /lobbies/{id}/members/{user} (and @me): idempotent for the member, 10031 for the lobby. */
  async removeMember(applicationId: string, lobbyId: string, userId: string): Promise<void> {
    await withTransaction(this.pool, async (db) => {
      await this.read(db, applicationId, lobbyId, true);
      const gone = await db.query<MemberRow>(
        `DELETE FROM lobby_member WHERE lobby_id = $1 AND user_id = $2 RETURNING ${MEMBER_COLUMNS}`,
        [lobbyId, userId],
      );
      if (gone.rowCount === 0) return;
      await this.touch(db, lobbyId);
      const lobby = await this.read(db, applicationId, lobbyId, false);
      const removed = gone.rows.map(memberOf);
      await writeOutboxRows(db, DB_SCHEMA, this.memberEvents(lobby, [], removed));
    });
  }

  /** POST /lobbies/{id}/members/bulk: removes and upserts; answers the upserted members that fit. */
  async bulk(applicationId: string, lobbyId: string, members: MemberInput[]): Promise<MemberRecord[]> {
    return withTransaction(this.pool, async (db) => {
      await this.read(db, applicationId, lobbyId, true);
      const removeIds = members.filter((m) => m.remove).map((m) => m.id);
      const gone = await db.query<MemberRow>(
        `DELETE FROM lobby_member WHERE lobby_id = $1 AND user_id = ANY($2::bigint[]) RETURNING ${MEMBER_COLUMNS}`,
        [lobbyId, removeIds],
      );
      const removed = gone.rows.map(memberOf);
      const changes = await this.upsertMembers(
        db,
        applicationId,
        lobbyId,
        members.filter((m) => !m.remove),
        'drop',
      );
      const lobby = await this.read(db, applicationId, lobbyId, false);
      await writeOutboxRows(db, DB_SCHEMA, this.memberEvents(lobby, changes, removed));
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
    if (!author.bot && !lobby.member) throw new NotLobbyMemberError();
    const message = renderLobbyMessage({
      id: this.ids.next(),
      lobbyId,
      applicationId,
      content: input.content,
      metadata: input.metadata,
      author: author.user,
      additionalName: author.bot ? null : lobby.additional_name,
    });
    const event = createEvent('lobby.message.created', {
      application_id: applicationId,
      lobby_id: lobbyId,
      user_ids: lobby.user_ids ?? [],
      message,
      override_event_webhooks_url: lobby.override_event_webhooks_url,
      linked_channel:
        lobby.linked_channel_id !== null && lobby.linked_guild_id !== null
          ? { guild_id: lobby.linked_guild_id, channel_id: lobby.linked_channel_id }
          : null,
    });
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
       events AS (${insertOutboxSql(params, DB_SCHEMA, [event])})
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
    if (!caller.bot && !lobby.member) throw new NotLobbyMemberError();
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
      const lobby = await this.read(db, applicationId, lobbyId, false);
      const updated = await db.query<{ message: JsonRecord; created_at: Date }>(
        `UPDATE lobby_message SET moderation_metadata = $3 WHERE id = $1 AND lobby_id = $2
         RETURNING message, created_at`,
        [messageId, lobbyId, JSON.stringify(metadata)],
      );
      const row = updated.rows[0];
      if (!row) throw new UnknownMessageError();
      const message = {
        ...row.message,
        moderation_metadata: metadata,
        timestamp: row.created_at.toISOString(),
        edited_timestamp: new Date().toISOString(),
      };
      await writeOutboxRows(db, DB_SCHEMA, [
        createEvent('lobby.message.updated', {
          application_id: applicationId,
          lobby_id: lobbyId,
          user_ids: lobby.members.map((m) => m.userId),
          message,
          override_event_webhooks_url: lobby.overrideEventWebhooksUrl,
          linked_channel: linkOf(lobby),
        }),
      ]);
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
      const before = await this.read(db, applicationId, lobbyId, true);
      this.checkMayLink(before, userId);
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
      const lobby = await this.read(db, applicationId, lobbyId, false);
      await writeOutboxRows(db, DB_SCHEMA, [this.lobbyEvent('lobby.lobby.updated', lobby)]);
      return lobby;
    });
  }

  /** The lobby, when `userId` may link or unlink it (a member with CanLinkLobby): 403 / 50001 if not. */
  async assertMayLink(applicationId: string, lobbyId: string, userId: string): Promise<LobbyRecord> {
    const lobby = await this.get(applicationId, lobbyId);
    this.checkMayLink(lobby, userId);
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
      await writeOutboxRows(
        db,
        DB_SCHEMA,
        gone.rows.map((r) =>
          this.deletedEvent({ id: r.id, applicationId: r.application_id }, r.user_ids ?? [], 'deleted'),
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

  private checkMayLink(lobby: LobbyRecord, userId: string): void {
    const member = lobby.members.find((m) => m.userId === userId);
    if (!member || (member.flags & CAN_LINK_LOBBY) === 0) throw new NotLobbyMemberError();
  }

  /**
   * Adds or updates members under the limits (the lobby row locked by the caller): a user
   * not yet a member who would pass 1,000 members, or who is in 100 lobbies of the
   * application already, is refused (`refuse`) or left out (`drop`).
   */
  private async upsertMembers(
    db: PoolClient,
    applicationId: string,
    lobbyId: string,
    members: MemberInput[],
    overLimit: OverLimit,
  ): Promise<MemberChange[]> {
    if (members.length === 0) return [];
    const ids = members.map((m) => m.id);
    const counts = await db.query<{ present: string[] | null; total: number; full_users: string[] | null }>(
      `SELECT (SELECT array_agg(user_id::text) FROM lobby_member WHERE lobby_id = $1 AND user_id = ANY($3::bigint[])) AS present,
              (SELECT count(*)::int FROM lobby_member WHERE lobby_id = $1) AS total,
              (SELECT array_agg(user_id::text) FROM (
                 SELECT user_id FROM lobby_member WHERE application_id = $2 AND user_id = ANY($3::bigint[])
                  GROUP BY user_id HAVING count(*) >= $4) AS f) AS full_users`,
      [lobbyId, applicationId, ids, MAX_LOBBIES_PER_USER],
    );
    const row = counts.rows[0] as { present: string[] | null; total: number; full_users: string[] | null };
    const present = new Set(row.present ?? []);
    const full = new Set(row.full_users ?? []);
    let room = MAX_MEMBERS - row.total;
    const accepted: MemberInput[] = [];
    for (const member of members) {
      if (!present.has(member.id)) {
        if (full.has(member.id)) {
          if (overLimit === 'refuse') {
            throw limitReachedError(
              'LOBBY_USER_LIMIT',
              `Maximum number of lobbies reached (${MAX_LOBBIES_PER_USER})`,
            );
          }
          continue;
        }
        if (room <= 0) {
          if (overLimit === 'refuse') {
            throw limitReachedError(
              'LOBBY_MEMBER_LIMIT',
              `Maximum number of lobby members reached (${MAX_MEMBERS})`,
            );
          }
          continue;
        }
        room -= 1;
      }
      accepted.push(member);
    }
    if (accepted.length === 0) return [];
    const upserted = await db.query<MemberRow & { inserted: boolean }>(
      `INSERT INTO lobby_member (lobby_id, user_id, application_id, metadata, flags, additional_name)
       SELECT $1, u.id, $2, u.metadata, u.flags, u.additional_name
         FROM unnest($3::bigint[], $4::jsonb[], $5::int[], $6::text[]) AS u(id, metadata, flags, additional_name)
       ON CONFLICT (lobby_id, user_id) DO UPDATE SET
         metadata = EXCLUDED.metadata,
         flags = EXCLUDED.flags,
         additional_name = CASE WHEN EXCLUDED.user_id = ANY($7::bigint[]) THEN lobby_member.additional_name
                                ELSE EXCLUDED.additional_name END
       RETURNING ${MEMBER_COLUMNS}, (xmax = 0) AS inserted`,
      [
        lobbyId,
        applicationId,
        accepted.map((m) => m.id),
        accepted.map((m) => jsonOrNull(m.metadata)),
        accepted.map((m) => m.flags),
        accepted.map((m) => m.additionalName ?? null),
        accepted.filter((m) => m.additionalName === undefined).map((m) => m.id),
      ],
    );
    await this.touch(db, lobbyId);
    const byId = new Map(upserted.rows.map((r) => [r.user_id, r]));
    return accepted.map((m) => {
      const r = byId.get(m.id) as MemberRow & { inserted: boolean };
      return { member: memberOf(r), added: r.inserted };
    });
  }

  /** The lobby with its members (locked for the transaction when `lock`), or 404 / 10031. */
  private async read(
    db: PoolClient,
    applicationId: string,
    lobbyId: string,
    lock: boolean,
  ): Promise<LobbyRecord> {
    const found = await db.query<LobbyRow>(
      `SELECT ${LOBBY_COLUMNS} FROM lobby
        WHERE id = $1 AND application_id = $2 AND expires_at > now() ${lock ? 'FOR UPDATE' : ''}`,
      [lobbyId, applicationId],
    );
    const row = found.rows[0];
    if (!row) throw new UnknownLobbyError();
    const members = await db.query<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM lobby_member WHERE lobby_id = $1 ORDER BY joined_at, user_id`,
      [lobbyId],
    );
    return lobbyOf(row, members.rows);
  }

  /** Moves the lobby's idle timer to now. */
  private async touch(db: PoolClient, lobbyId: string): Promise<void> {
    await db.query(`UPDATE lobby SET expires_at = ${this.idleEnd} WHERE id = $2`, [
      this.idleSecondMs,
      lobbyId,
    ]);
  }

  private lobbyEvent(name: 'lobby.lobby.created' | 'lobby.lobby.updated', lobby: LobbyRecord): OutboxRow {
    return createEvent(name, {
      application_id: lobby.applicationId,
      lobby_id: lobby.id,
      user_ids: lobby.members.map((m) => m.userId),
      lobby: renderGatewayLobby(lobby),
    });
  }

  private deletedEvent(
    lobby: { id: string; applicationId: string },
    userIds: string[],
    reason: 'deleted' | 'removed',
  ): OutboxRow {
    return createEvent('lobby.lobby.deleted', {
      application_id: lobby.applicationId,
      lobby_id: lobby.id,
      user_ids: userIds,
      reason,
    });
  }

  /**
   * LOBBY_MEMBER_ADD / _UPDATE for `changes` and _REMOVE for `removed`, to the members (and
   * the removed); then LOBBY_DELETE `removed` to the removed, whose sessions leave the lobby.
   */
  private memberEvents(lobby: LobbyRecord, changes: MemberChange[], removed: MemberRecord[]): OutboxRow[] {
    const audience = [...lobby.members.map((m) => m.userId), ...removed.map((m) => m.userId)];
    const event = (change: 'added' | 'updated' | 'removed', member: MemberRecord) =>
      createEvent('lobby.member.changed', {
        application_id: lobby.applicationId,
        lobby_id: lobby.id,
        user_ids: audience,
        change,
        member: memberEvent(lobby, member).member as JsonRecord,
      });
    const events = [
      ...changes.map((c) => event(c.added ? 'added' : 'updated', c.member)),
      ...removed.map((m) => event('removed', m)),
    ];
    if (removed.length > 0) {
      events.push(
        this.deletedEvent(
          lobby,
          removed.map((m) => m.userId),
          'removed',
        ),
      );
    }
    return events;
  }
}

/** The lobby a join found by its secret was deleted before the join could update it. */
class LobbyVanished extends UnknownLobbyError {}

/** A member the change added (or updated). */
export interface MemberChange {
  member: MemberRecord;
  added: boolean;
}

/** The lobby's linked channel as events carry it. */
function linkOf(lobby: LobbyRecord): { guild_id: string; channel_id: string } | null {
  const channel = lobby.linkedChannel;
  if (!channel || typeof channel.guild_id !== 'string' || typeof channel.id !== 'string') return null;
  return { guild_id: channel.guild_id, channel_id: channel.id };
}

/** A metadata value as a jsonb parameter. */
function jsonOrNull(value: Record<string, string> | null | undefined): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
