import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import {
  presenceUpdatePayload,
  type Activity,
  type PresenceStatus,
  type ProfilePrivacy,
  type StoredPresence,
} from '../domain/presence';

/** A row of presence_session as the queries read it. */
interface PresenceRow {
  user_id: string;
  setter: string;
  status: string;
  activities: Activity[];
  since: string | null;
  afk: boolean;
  profile_privacy: string;
}

/** Each user's presence: their most recently updated live session's row ($2: the staleness bound, ms). */
const LATEST_SQL = `
  SELECT DISTINCT ON (user_id) user_id::text, setter, status, activities, since::text, afk, profile_privacy
    FROM dispatcher.presence_session
   WHERE user_id = ANY($1::bigint[])
     AND seen_at > clock_timestamp() - make_interval(secs => $2::float8 / 1000)
   ORDER BY user_id, updated_at DESC, session_id`;

function toStored(row: PresenceRow): StoredPresence {
  return {
    userId: row.user_id,
    setter: row.setter === 'bot' ? 'bot' : 'user',
    profilePrivacy: row.profile_privacy as ProfilePrivacy,
    presence: {
      status: row.status as PresenceStatus,
      activities: row.activities,
      since: row.since === null ? null : Number(row.since),
      afk: row.afk,
    },
  };
}

/** How long a replica's rows count without being renewed (it renews them every third of this). */
export const PRESENCE_STALE_AFTER_MS = 90_000;

/**
 * The presences gateway sessions set, in the dispatcher's schema, so that every replica
 * reads the same: a session's row lives while the session does; a user's presence is their
 * latest session's; none left means offline. Each replica renews its rows (`renew`); the
 * rows of a replica that died without ending its sessions stop counting after
 * PRESENCE_STALE_AFTER_MS and are pruned.
 */
export class PresenceStore {
  constructor(
    private readonly pool: Pool,
    /** This replica's id (its rows). */
    readonly replicaId: string = randomUUID(),
    private readonly staleAfterMs: number = PRESENCE_STALE_AFTER_MS,
  ) {}

  /** Marks this replica's rows as alive; the number renewed. */
  async renew(): Promise<number> {
    const { rowCount } = await this.pool.query(
      `UPDATE dispatcher.presence_session SET seen_at = clock_timestamp() WHERE replica_id = $1`,
      [this.replicaId],
    );
    return rowCount ?? 0;
  }

  /** Deletes the rows no replica renewed in time; the number deleted. */
  async prune(): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM dispatcher.presence_session
        WHERE seen_at < clock_timestamp() - make_interval(secs => $1::float8 / 1000)`,
      [this.staleAfterMs],
    );
    return rowCount ?? 0;
  }

  /** Records the presence a session set, and answers the user's presence (this one: it is the latest). */
  async put(sessionId: string, stored: StoredPresence): Promise<StoredPresence> {
    const { presence } = stored;
    await this.pool.query(
      `INSERT INTO dispatcher.presence_session
              (session_id, user_id, setter, status, activities, since, afk, profile_privacy, replica_id,
               updated_at, seen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, clock_timestamp(), clock_timestamp())
       ON CONFLICT (session_id) DO UPDATE
          SET status = excluded.status, activities = excluded.activities, since = excluded.since,
              afk = excluded.afk, profile_privacy = excluded.profile_privacy,
              replica_id = excluded.replica_id, updated_at = excluded.updated_at, seen_at = excluded.seen_at`,
      [
        sessionId,
        stored.userId,
        stored.setter,
        presence.status,
        JSON.stringify(presence.activities),
        presence.since,
        presence.afk,
        stored.profilePrivacy,
        this.replicaId,
      ],
    );
    return stored;
  }

  /**
   * Forgets an ended session's presence: the user and their presence from their other
   * sessions (undefined when none is left: they are offline), or null when the session had
   * set none (nothing changed).
   */
  async remove(sessionId: string): Promise<{ userId: string; latest: StoredPresence | undefined } | null> {
    const removed = await this.pool.query<{ user_id: string }>(
      `DELETE FROM dispatcher.presence_session WHERE session_id = $1 RETURNING user_id::text`,
      [sessionId],
    );
    const userId = removed.rows[0]?.user_id;
    if (userId === undefined) return null;
    return { userId, latest: (await this.latestOf([userId])).get(userId) };
  }

  /** The current presence of each user that has one (a live session), by user id. */
  async latestOf(userIds: readonly string[]): Promise<Map<string, StoredPresence>> {
    if (userIds.length === 0) return new Map();
    const { rows } = await this.pool.query<PresenceRow>(LATEST_SQL, [userIds, this.staleAfterMs]);
    return new Map(rows.map((row) => [row.user_id, toStored(row)]));
  }

  /**
   * The presences of the guild's members `userIds` as GUILD_CREATE's and GUILD_MEMBERS_CHUNK's
   * `presences` hold them (PRESENCE_UPDATE objects): one per user who is connected, invisible
   * ones as offline; a custom status hidden as the user's privacy asks for a guild of
   * `guildMemberCount` members (0, a small server, when the caller does not know).
   */
  async presencesOf(
    guildId: string,
    userIds: readonly string[],
    guildMemberCount = 0,
  ): Promise<Record<string, unknown>[]> {
    const latest = await this.latestOf(userIds);
    return [...latest.values()].map((stored) => presenceUpdatePayload(stored, guildId, guildMemberCount));
  }
}
