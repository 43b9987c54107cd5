import type { Pool, PoolClient } from 'pg';
import { withTransaction } from '@acs/service-kit';
import type { SnowflakeGenerator } from '@acs/snowflake';
import {
  checkOverwrite,
  DAILY_CREATES_WINDOW_SECONDS,
  describeOverwrite,
  localizeCommand,
  planBulkWrite,
  planDelete,
  planEdit,
  planEntryPoint,
  planOverwrite,
  planUpsert,
  UnknownCommandError,
  type BulkCommand,
  type CommandChange,
  type CreateQuota,
  type NewId,
  type NormalizedCommand,
  type OverwriteDiff,
  type OverwritePlan,
} from '../domain';
import { applyCommandChange } from './apply-command-change';
import { ListCache } from './list-cache';
import { QUOTA_COLUMNS, readCreateQuota, toQuota, WINDOW_START, type QuotaRow } from './read-create-quota';
import { renderCommand } from './render-command';
import { scopeParams, type CommandScope, type StoredCommand } from './stored-command';

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
 * The store executes, the domain decides: each write reads what its planner needs
 * (planUpsert, planEdit, planDelete, planBulkWrite, planEntryPoint), and applies the
 * planner's change (rows, quota count, events) with applyCommandChange in the same
 * transaction.
 *
 * The queries are plain SQL on `pg` (the schema and migrations are Prisma's): the
 * benchmark measured Prisma's interactive transactions at several milliseconds per
 * statement, which put a 100-command overwrite at ~400 ms (goal: < 150 ms).
 */
export class CommandStore {
  private readonly lists = new ListCache();
  private readonly windowSeconds: number;
  private readonly newId: NewId;

  constructor(
    private readonly pool: Pool,
    ids: SnowflakeGenerator,
    options: CommandStoreOptions = {},
  ) {
    this.windowSeconds = options.createsWindowSeconds ?? DAILY_CREATES_WINDOW_SECONDS;
    this.newId = () => ids.next();
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
    const params = scopeParams(scope);
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
   * id kept), as planUpsert decides. An identical upsert changes nothing, not even the version.
   */
  async upsert(
    scope: CommandScope,
    command: NormalizedCommand,
  ): Promise<{ stored: StoredCommand; created: boolean }> {
    return this.write(scope, async (db) => {
      const { rows } = await db.query<CommandRow>(
        `SELECT ${COLUMNS} FROM command WHERE application_id = $1 AND guild_id = $2 AND type = $3 AND name = $4`,
        [...scopeParams(scope), command.type, command.name],
      );
      const counts = await db.query<QuotaRow & { of_type: number }>(
        `SELECT (SELECT count(*)::int FROM command
                  WHERE application_id = $1 AND guild_id = $2 AND type = $4) AS of_type, ${QUOTA_COLUMNS}
           FROM (SELECT ${WINDOW_START} AS start) w
           LEFT JOIN daily_creates d
             ON d.application_id = $1 AND d.guild_id = $2 AND d.window_start = w.start`,
        [...scopeParams(scope), this.windowSeconds, command.type],
      );
      const facts = {
        existing: rows[0] && toStored(scope, rows[0]),
        ofType: counts.rows[0]?.of_type ?? 0,
        createsRemaining: toQuota(counts.rows[0], this.windowSeconds).remaining,
      };
      const plan = planUpsert(facts, command, this.newId);
      return {
        result: { stored: { ...scope, ...plan.command }, created: plan.created },
        change: plan.change,
      };
    });
  }

  /** PATCH: applies `change` to the stored command, as planEdit decides (a rename must not collide). */
  async edit(
    scope: CommandScope,
    commandId: string,
    change: (current: NormalizedCommand) => NormalizedCommand,
  ): Promise<StoredCommand> {
    return this.write(scope, async (db) => {
      const current = await readCommand(db, scope, commandId);
      const next = current && change(current.command);
      const holder =
        next &&
        (await db.query<{ id: string }>(
          'SELECT id::text FROM command WHERE application_id = $1 AND guild_id = $2 AND type = $3 AND name = $4',
          [...scopeParams(scope), next.type, next.name],
        ));
      const plan = planEdit({ current, next, nameHolderId: holder?.rows[0]?.id }, this.newId);
      return { result: plan.command, change: plan.change };
    });
  }

  /** DELETE: removes the command as planDelete decides; UnknownCommandError when there is none. */
  async remove(scope: CommandScope, commandId: string): Promise<void> {
    await this.write(scope, async (db) => {
      const change = planDelete(await readCommand(db, scope, commandId));
      return { result: undefined, change };
    });
  }

  /**
   * PUT: the scope's commands become exactly `items`, atomically, as planOverwrite pairs
   * them and planBulkWrite decides (refusals 50240 and 30034, versions, events). An
   * overwrite equal to what is stored writes nothing (`changed` false).
   */
  async overwrite(scope: CommandScope, items: BulkCommand[]): Promise<OverwriteOutcome> {
    return this.write(scope, async (db) => {
      // Checked at commit, so that two commands may swap names within the overwrite.
      await db.query('SET CONSTRAINTS command_scope_name_key DEFERRED');
      const pairing = planOverwrite(await readScope(db, scope), items);
      const quota = await readCreateQuota(db, scope, this.windowSeconds);
      const plan = planBulkWrite(pairing, quota.remaining, this.newId);
      const commands = plan.commands.map((c): StoredCommand => ({ ...scope, ...c }));
      return { result: { commands, changed: plan.change !== null }, change: plan.change };
    });
  }

  /**
   * The dry run of `overwrite` (ACS-only): the same plan from one snapshot of the scope and
   * its quota, refused by the same checkOverwrite (50240, 30034), and nothing written.
   */
  async previewOverwrite(scope: CommandScope, items: BulkCommand[]): Promise<OverwritePreview> {
    return withTransaction(
      this.pool,
      async (db) => {
        const plan: OverwritePlan<StoredCommand> = planOverwrite(await readScope(db, scope), items);
        const quota = await readCreateQuota(db, scope, this.windowSeconds);
        checkOverwrite(plan, quota.remaining);
        return { diff: describeOverwrite(plan), createsCounted: plan.fresh.length, quota };
      },
      { isolation: 'repeatable read', readOnly: true },
    );
  }

  /** Creates the given entry point command unless the application already has one (planEntryPoint). */
  async ensureEntryPoint(
    applicationId: string,
    command: NormalizedCommand,
  ): Promise<{ stored: StoredCommand; created: boolean }> {
    const scope = { applicationId, guildId: '' };
    return this.write(scope, async (db) => {
      const { rows } = await db.query<CommandRow>(
        `SELECT ${COLUMNS} FROM command WHERE application_id = $1 AND guild_id = $2 AND type = $3`,
        [...scopeParams(scope), command.type],
      );
      const plan = planEntryPoint(rows[0] && toStored(scope, rows[0]), command, this.newId);
      return {
        result: { stored: { ...scope, ...plan.command }, created: plan.created },
        change: plan.change,
      };
    });
  }

  /**
   * One write to a scope: one transaction that first takes the scope's lock, reads and plans
   * (`decide`), then applies the plan's change, if any.
   */
  private async write<R>(
    scope: CommandScope,
    decide: (db: PoolClient) => Promise<{ result: R; change: CommandChange | null }>,
  ): Promise<R> {
    return withTransaction(this.pool, async (db) => {
      await lockScope(db, scope);
      const { result, change } = await decide(db);
      if (change) await applyCommandChange(db, scope, change, this.windowSeconds);
      return result;
    });
  }
}

function toStored(scope: CommandScope, row: CommandRow): StoredCommand {
  return { ...scope, id: row.id, version: row.version, command: row.data };
}

/** The scope's command with that id, if any. */
async function readCommand(
  db: PoolClient,
  scope: CommandScope,
  id: string,
): Promise<StoredCommand | undefined> {
  const { rows } = await db.query<CommandRow>(
    `SELECT ${COLUMNS} FROM command WHERE id = $1 AND application_id = $2 AND guild_id = $3`,
    [id, ...scopeParams(scope)],
  );
  return rows[0] && toStored(scope, rows[0]);
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
