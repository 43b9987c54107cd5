import type { Pool, PoolClient } from 'pg';
import { createEvent, writeOutboxRows, type OutboxRow } from '@acs/events';
import { withTransaction } from '@acs/service-kit';
import type { SnowflakeGenerator } from '@acs/snowflake';
import {
  commandsEqual,
  DAILY_CREATES_WINDOW_SECONDS,
  describeOverwrite,
  EntryPointBulkRemovalError,
  localizeCommand,
  MAX_COMMANDS_BY_TYPE,
  MAX_DAILY_CREATES,
  MaxCommandsError,
  MaxDailyCreatesError,
  planOverwrite,
  remainingCreates,
  UnknownCommandError,
  type BulkCommand,
  type CreateQuota,
  type NormalizedCommand,
  type OverwriteDiff,
  type OverwritePlan,
} from '../domain';
import { DB_SCHEMA } from '../config';
import { CommandNameTakenError } from './command-name-taken-error';
import { ListCache } from './list-cache';
import { renderCommand } from './render-command';
import { guildColumn, type CommandScope, type StoredCommand } from './stored-command';

/** How a list is shown: with every localization dictionary, or localized for one locale. */
export interface ListView {
  withLocalizations: boolean;
  locale: string;
}

interface CommandRow {
  id: string;
  version: string;
  data: NormalizedCommand;
}

const COLUMNS = 'id::text, version::text, data';

/** What the store is told beyond its pool and ids. */
export interface CommandStoreOptions {
  /**
   * The create quota's window in seconds (default a UTC day). Windows start at multiples of
   * it since the Unix epoch, so the default is the UTC day; tests shorten it.
   */
  createsWindowSeconds?: number;
}

/** A bulk overwrite done: the scope's commands in the body's order, and whether anything changed. */
export interface OverwriteOutcome {
  commands: StoredCommand[];
  /** False for an overwrite equal to what was stored: no version, event or create moved. */
  changed: boolean;
}

/** A bulk overwrite described, not done (ACS-only dry run). */
export interface OverwritePreview {
  diff: OverwriteDiff;
  /** New commands the overwrite would count toward the quota. */
  createsCounted: number;
  /** The quota as it stands (nothing was counted). */
  quota: CreateQuota;
}

/**
 * Commands in PostgreSQL. Every write runs in one transaction that first locks the
 * scope's row, so that writes to one scope are serialized: limits, daily quotas and bulk
 * overwrites see a stable set. A write that changes something moves the scope's
 * revision, which is what readers cache by; readers see the old or the new set, never a
 * mix. The unique constraint on (application, guild, type, name) backs the rule that a
 * name exists once.
 *
 * The queries are plain SQL on `pg` (the schema and migrations are Prisma's): the
 * benchmark measured Prisma's interactive transactions at several milliseconds per
 * statement, which put a 100-command overwrite at ~400 ms (goal: < 150 ms).
 */
export class CommandStore {
  private readonly lists = new ListCache();
  private readonly windowSeconds: number;

  constructor(
    private readonly pool: Pool,
    private readonly ids: SnowflakeGenerator,
    options: CommandStoreOptions = {},
  ) {
    this.windowSeconds = options.createsWindowSeconds ?? DAILY_CREATES_WINDOW_SECONDS;
  }

  /** The scope's create quota as it stands now (ACS-only: the X-Command-Creates-* headers). */
  async createQuota(scope: CommandScope): Promise<CreateQuota> {
    return readCreateQuota(this.pool, scope, this.windowSeconds);
  }

  /** The scope's commands as wire JSON text, rendered once per revision and view. */
  async listJson(scope: CommandScope, view: ListView): Promise<string> {
    return (await this.list(scope, view)).json;
  }

  /**
   * The scope's commands as wire JSON text (listJson) and its create quota, read with the
   * scope's revision in one statement: the hot list path stays one indexed read when cached.
   */
  async list(scope: CommandScope, view: ListView): Promise<{ json: string; quota: CreateQuota }> {
    const params = [scope.applicationId, guildColumn(scope).toString()];
    const key = `${params[0]}:${params[1]}:${view.withLocalizations ? '*' : view.locale}`;
    // Prepared (named) once per connection: planned each time, this join would cost twice
    // the revision read it replaces; prepared, it costs the same (measured, ~50 µs).
    const current = await this.pool.query<QuotaRow & { revision: string | null }>({
      name: 'registry-list-head',
      text: `SELECT s.revision::text, ${QUOTA_COLUMNS}
               FROM (SELECT ${WINDOW_START} AS start) w
               LEFT JOIN command_scope s ON s.application_id = $1 AND s.guild_id = $2
               LEFT JOIN daily_creates d
                 ON d.application_id = $1 AND d.guild_id = $2 AND d.window_start = w.start`,
      values: [...params, this.windowSeconds],
    });
    const quota = toQuota(current.rows[0], this.windowSeconds);
    const revision = current.rows[0]?.revision ?? undefined;
    if (revision === undefined) return { json: '[]', quota };
    const cached = this.lists.get(key, revision);
    if (cached !== undefined) return { json: cached, quota };

    // One statement, one snapshot: the revision and the rows it describes.
    const { rows } = await this.pool.query<{
      revision: string;
      id: string | null;
      version: string;
      data: NormalizedCommand;
    }>(
      `SELECT s.revision::text, c.id::text, c.version::text, c.data
         FROM command_scope s
         LEFT JOIN command c ON c.application_id = s.application_id AND c.guild_id = s.guild_id
        WHERE s.application_id = $1 AND s.guild_id = $2
        ORDER BY c.id`,
      params,
    );
    const commands = rows
      .filter((row) => row.id !== null)
      .map((row) => {
        const stored: StoredCommand = {
          ...scope,
          id: row.id as string,
          version: row.version,
          command: row.data,
        };
        return view.withLocalizations
          ? renderCommand(stored)
          : renderCommand(stored, localizeCommand(stored.command, view.locale));
      });
    const json = JSON.stringify(commands);
    this.lists.set(key, rows[0]?.revision ?? revision, json);
    return { json, quota };
  }

  /** One command of the scope; UnknownCommandError when there is none with that id. */
  async get(scope: CommandScope, commandId: string): Promise<StoredCommand> {
    const { rows } = await this.pool.query<CommandRow>(
      `SELECT ${COLUMNS} FROM command WHERE id = $1 AND application_id = $2 AND guild_id = $3`,
      [commandId, ...scopeParams(scope)],
    );
    if (!rows[0]) throw new UnknownCommandError();
    return toStored(scope, rows[0]);
  }

  /**
   * POST: creates the command, or updates the one with the same name and type (upsert,
   * id kept). An identical upsert changes nothing, not even the version.
   */
  async upsert(
    scope: CommandScope,
    command: NormalizedCommand,
  ): Promise<{ stored: StoredCommand; created: boolean }> {
    return withTransaction(this.pool, async (db) => {
      await lockScope(db, scope);
      const { rows } = await db.query<CommandRow>(
        `SELECT ${COLUMNS} FROM command WHERE application_id = $1 AND guild_id = $2 AND type = $3 AND name = $4`,
        [...scopeParams(scope), command.type, command.name],
      );
      const existing = rows[0] && toStored(scope, rows[0]);
      if (existing) {
        if (commandsEqual(existing.command, command)) return { stored: existing, created: false };
        const [updated] = await this.update(db, scope, [[existing, command]]);
        return { stored: updated as StoredCommand, created: false };
      }
      const count = await db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM command WHERE application_id = $1 AND guild_id = $2 AND type = $3',
        [...scopeParams(scope), command.type],
      );
      const limit = MAX_COMMANDS_BY_TYPE[command.type];
      if ((count.rows[0]?.count ?? 0) >= limit) throw new MaxCommandsError(limit);
      await consumeDailyCreates(db, scope, 1, this.windowSeconds);
      const [created] = await this.insert(db, scope, [command]);
      return { stored: created as StoredCommand, created: true };
    });
  }

  /** PATCH: applies `change` to the stored command; a rename must not collide. */
  async edit(
    scope: CommandScope,
    commandId: string,
    change: (current: NormalizedCommand) => NormalizedCommand,
  ): Promise<StoredCommand> {
    return withTransaction(this.pool, async (db) => {
      await lockScope(db, scope);
      const { rows } = await db.query<CommandRow>(
        `SELECT ${COLUMNS} FROM command WHERE id = $1 AND application_id = $2 AND guild_id = $3`,
        [commandId, ...scopeParams(scope)],
      );
      if (!rows[0]) throw new UnknownCommandError();
      const stored = toStored(scope, rows[0]);
      const next = change(stored.command);
      if (commandsEqual(stored.command, next)) return stored;
      if (next.name !== stored.command.name) {
        const clash = await db.query(
          'SELECT 1 FROM command WHERE application_id = $1 AND guild_id = $2 AND type = $3 AND name = $4',
          [...scopeParams(scope), next.type, next.name],
        );
        if (clash.rowCount) throw new CommandNameTakenError();
      }
      const [updated] = await this.update(db, scope, [[stored, next]]);
      return updated as StoredCommand;
    });
  }

  /** DELETE: removes the command; UnknownCommandError when there is none. */
  async remove(scope: CommandScope, commandId: string): Promise<void> {
    await withTransaction(this.pool, async (db) => {
      await lockScope(db, scope);
      const { rows } = await db.query<CommandRow>(
        `DELETE FROM command WHERE id = $1 AND application_id = $2 AND guild_id = $3 RETURNING ${COLUMNS}`,
        [commandId, ...scopeParams(scope)],
      );
      if (!rows[0]) throw new UnknownCommandError();
      await recordChange(db, scope, [deletedEvent(toStored(scope, rows[0]))]);
    });
  }

  /**
   * PUT: the scope's commands become exactly `items`, atomically, as planOverwrite decides:
   * items match existing commands by id (same type) first, then by name and type, and keep
   * their ids; unmatched existing commands are deleted, except the entry point, whose
   * removal refuses the whole request (50240); only new commands count toward the daily
   * quota. An overwrite equal to what is stored writes nothing (`changed` false).
   * A handful of set-based statements, whatever the number of commands.
   */
  async overwrite(scope: CommandScope, items: BulkCommand[]): Promise<OverwriteOutcome> {
    return withTransaction(this.pool, async (db) => {
      await lockScope(db, scope);
      // Checked at commit, so that two commands may swap names within the overwrite.
      await db.query('SET CONSTRAINTS command_scope_name_key DEFERRED');
      const plan = planOverwrite(await readScope(db, scope), items);
      // Discord refuses the whole request rather than drop the entry point (DELETE may).
      if (plan.removesEntryPoint) throw new EntryPointBulkRemovalError();
      if (plan.isNoop) return { commands: plan.items.map((p) => p.match as StoredCommand), changed: false };

      const events: OutboxRow[] = plan.removed.map(deletedEvent);
      if (plan.removed.length > 0) {
        await db.query('DELETE FROM command WHERE id = ANY($1::bigint[])', [plan.removed.map((c) => c.id)]);
      }
      const changes = plan.changed.map((p) => [p.match as StoredCommand, p.item.command] as const);
      const updated = await this.update(db, scope, changes, events);
      if (plan.fresh.length > 0) await consumeDailyCreates(db, scope, plan.fresh.length, this.windowSeconds);
      const created = await this.insert(
        db,
        scope,
        plan.fresh.map((p) => p.item.command),
        true,
      );

      const results = new Map<BulkCommand, StoredCommand>();
      const updatedById = new Map(updated.map((s) => [s.id, s]));
      for (const p of plan.items) if (p.match) results.set(p.item, updatedById.get(p.match.id) ?? p.match);
      plan.fresh.forEach((p, i) => results.set(p.item, created[i] as StoredCommand));
      await recordChange(db, scope, events);
      return { commands: items.map((item) => results.get(item) as StoredCommand), changed: true };
    });
  }

  /**
   * The dry run of `overwrite` (ACS-only): the same plan from one snapshot of the scope and
   * its quota, refused with the same errors (50240, 30034), and nothing written.
   */
  async previewOverwrite(scope: CommandScope, items: BulkCommand[]): Promise<OverwritePreview> {
    return withTransaction(
      this.pool,
      async (db) => {
        const plan: OverwritePlan<StoredCommand> = planOverwrite(await readScope(db, scope), items);
        if (plan.removesEntryPoint) throw new EntryPointBulkRemovalError();
        const quota = await readCreateQuota(db, scope, this.windowSeconds);
        if (plan.fresh.length > quota.remaining) throw new MaxDailyCreatesError();
        return { diff: describeOverwrite(plan), createsCounted: plan.fresh.length, quota };
      },
      { isolation: 'repeatable read', readOnly: true },
    );
  }

  /** Creates the given entry point command unless the application already has one. */
  async ensureEntryPoint(
    applicationId: string,
    command: NormalizedCommand,
  ): Promise<{ stored: StoredCommand; created: boolean }> {
    const scope = { applicationId, guildId: '' };
    return withTransaction(this.pool, async (db) => {
      await lockScope(db, scope);
      const { rows } = await db.query<CommandRow>(
        `SELECT ${COLUMNS} FROM command WHERE application_id = $1 AND guild_id = $2 AND type = $3`,
        [...scopeParams(scope), command.type],
      );
      if (rows[0]) return { stored: toStored(scope, rows[0]), created: false };
      const [created] = await this.insert(db, scope, [command]);
      return { stored: created as StoredCommand, created: true };
    });
  }

  /**
   * Inserts new commands (id = version = named_version = a fresh snowflake). No event
   * announces them (Discord has none for bots); the change is recorded here unless the
   * caller records it (`recordedByCaller`: a bulk overwrite records its whole change once).
   */
  private async insert(
    db: PoolClient,
    scope: CommandScope,
    commands: NormalizedCommand[],
    recordedByCaller = false,
  ): Promise<StoredCommand[]> {
    if (commands.length === 0) return [];
    const stored = commands.map((command) => {
      const id = this.ids.next();
      return { ...scope, id, version: id, command };
    });
    await db.query(
      `INSERT INTO command (id, application_id, guild_id, type, name, version, named_version, data)
       SELECT u.id, $1, $2, u.type, u.name, u.id, u.id, u.data::jsonb
         FROM unnest($3::bigint[], $4::int[], $5::text[], $6::text[]) AS u(id, type, name, data)`,
      [
        ...scopeParams(scope),
        stored.map((s) => s.id),
        stored.map((s) => s.command.type),
        stored.map((s) => s.command.name),
        stored.map((s) => JSON.stringify(s.command)),
      ],
    );
    if (!recordedByCaller) await recordChange(db, scope, []);
    return stored;
  }

  /**
   * Replaces commands' contents with a new version each; renames announce `command.renamed`
   * and move `named_version` to the new version (other edits keep it, and announce nothing).
   * Their events are appended to `events` when given (the caller records the change), else
   * the change is recorded here.
   */
  private async update(
    db: PoolClient,
    scope: CommandScope,
    changes: ReadonlyArray<readonly [StoredCommand, NormalizedCommand]>,
    events?: OutboxRow[],
  ): Promise<StoredCommand[]> {
    if (changes.length === 0) return [];
    const stored = changes.map(([current, command]) => ({ ...current, version: this.ids.next(), command }));
    // SET's right-hand sides read the row as it was: `c.name` is the name before this update.
    await db.query(
      `UPDATE command AS c
          SET name = u.name, version = u.version, data = u.data::jsonb,
              named_version = CASE WHEN c.name = u.name THEN c.named_version ELSE u.version END
         FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[]) AS u(id, name, version, data)
        WHERE c.id = u.id`,
      [
        stored.map((s) => s.id),
        stored.map((s) => s.command.name),
        stored.map((s) => s.version),
        stored.map((s) => JSON.stringify(s.command)),
      ],
    );
    const announced: OutboxRow[] = [];
    changes.forEach(([current], i) => {
      const next = stored[i] as StoredCommand;
      // Permissions of a renamed command are deleted (spec): permissions reacts to this event.
      if (current.command.name !== next.command.name)
        announced.push(renamedEvent(next, current.command.name));
    });
    if (events) events.push(...announced);
    else await recordChange(db, scope, announced);
    return stored;
  }
}

function scopeParams(scope: CommandScope): [string, string] {
  return [scope.applicationId, guildColumn(scope).toString()];
}

function toStored(scope: CommandScope, row: CommandRow): StoredCommand {
  return { ...scope, id: row.id, version: row.version, command: row.data };
}

/** The scope's commands, in id order. */
async function readScope(db: PoolClient, scope: CommandScope): Promise<StoredCommand[]> {
  const { rows } = await db.query<CommandRow>(
    `SELECT ${COLUMNS} FROM command WHERE application_id = $1 AND guild_id = $2 ORDER BY id`,
    scopeParams(scope),
  );
  return rows.map((row) => toStored(scope, row));
}

/** Takes the scope's row lock for the rest of the transaction (creating the row on first use). */
async function lockScope(db: PoolClient, scope: CommandScope): Promise<void> {
  await db.query(
    `INSERT INTO command_scope (application_id, guild_id, revision) VALUES ($1, $2, 0)
     ON CONFLICT (application_id, guild_id) DO UPDATE SET revision = command_scope.revision`,
    scopeParams(scope),
  );
}

// The start of the quota window holding the transaction's time: windows of $3 seconds since
// the Unix epoch (with a day's length, the UTC day).
const WINDOW_START = 'to_timestamp(floor(extract(epoch FROM now()) / $3::int) * $3::int)';

/** Counts `count` new commands against the current window's quota; throws when it would pass 200. */
async function consumeDailyCreates(
  db: PoolClient,
  scope: CommandScope,
  count: number,
  windowSeconds: number,
): Promise<void> {
  const { rows } = await db.query<{ count: number }>(
    `INSERT INTO daily_creates (application_id, guild_id, window_start, count)
     VALUES ($1, $2, ${WINDOW_START}, $4)
     ON CONFLICT (application_id, guild_id, window_start) DO UPDATE SET count = daily_creates.count + $4
     RETURNING count`,
    [...scopeParams(scope), windowSeconds, count],
  );
  // Exceeding throws, and the transaction's rollback undoes this increment too.
  if ((rows[0]?.count ?? 0) > MAX_DAILY_CREATES) throw new MaxDailyCreatesError();
}

/** The columns of a quota read (`w`: the current window, `d`: its daily_creates row). */
const QUOTA_COLUMNS = `coalesce(d.count, 0) AS used,
  ceil(extract(epoch FROM w.start + make_interval(secs => $3::int) - now()) * 1000)::float8 AS reset_after_ms`;

interface QuotaRow {
  used: number;
  reset_after_ms: number;
}

function toQuota(row: QuotaRow | undefined, windowSeconds: number): CreateQuota {
  return {
    remaining: remainingCreates(row?.used ?? 0),
    resetAfterMs: row?.reset_after_ms ?? windowSeconds * 1000,
  };
}

/** The scope's quota in the current window: creates left, and milliseconds until it ends. */
async function readCreateQuota(
  db: Pool | PoolClient,
  scope: CommandScope,
  windowSeconds: number,
): Promise<CreateQuota> {
  const { rows } = await db.query<QuotaRow>(
    `SELECT ${QUOTA_COLUMNS}
       FROM (SELECT ${WINDOW_START} AS start) w
       LEFT JOIN daily_creates d
         ON d.application_id = $1 AND d.guild_id = $2 AND d.window_start = w.start`,
    [...scopeParams(scope), windowSeconds],
  );
  return toQuota(rows[0], windowSeconds);
}

/** The command as its events name it, with the version after the change. */
function commandFields(stored: StoredCommand) {
  return {
    application_id: stored.applicationId,
    guild_id: stored.guildId === '' ? null : stored.guildId,
    command_id: stored.id,
    type: stored.command.type,
    name: stored.command.name,
    version: stored.version,
  };
}

function deletedEvent(stored: StoredCommand): OutboxRow {
  return createEvent('command-registry.command.deleted', commandFields(stored));
}

function renamedEvent(stored: StoredCommand, previousName: string): OutboxRow {
  return createEvent('command-registry.command.renamed', {
    ...commandFields(stored),
    previous_name: previousName,
  });
}

/**
 * Records a change: its events in the outbox, in order, with a wake-up for the relay (delivered
 * at commit), and a new revision of the scope so that every replica's list cache misses.
 */
async function recordChange(db: PoolClient, scope: CommandScope, rows: OutboxRow[]): Promise<void> {
  await writeOutboxRows(db, DB_SCHEMA, rows);
  await db.query(
    'UPDATE command_scope SET revision = revision + 1 WHERE application_id = $1 AND guild_id = $2',
    scopeParams(scope),
  );
}
