import type { PoolClient } from 'pg';
import { createEvent, writeOutboxRows, type OutboxRow } from '@acs/events';
import type { CommandChange, CommandEvent, VersionedCommand } from '../domain';
import { DB_SCHEMA } from '../config';
import { WINDOW_START } from './read-create-quota';
import { scopeParams, type CommandScope } from './stored-command';

/**
 * Applies a planner's change inside the caller's transaction (which holds the scope's lock),
 * in its order: deletes, updates, the quota's count, inserts; then its events in the outbox,
 * in order, with a wake-up for the relay (delivered at commit), and a new revision of the
 * scope so that every replica's list cache misses. A handful of set-based statements,
 * whatever the number of commands.
 */
export async function applyCommandChange(
  db: PoolClient,
  scope: CommandScope,
  change: CommandChange,
  windowSeconds: number,
): Promise<void> {
  if (change.deleted.length > 0) {
    await db.query('DELETE FROM command WHERE id = ANY($1::bigint[])', [change.deleted]);
  }
  if (change.updated.length > 0) {
    await db.query(
      `UPDATE command AS c
          SET name = u.name, version = u.version, data = u.data::jsonb,
              named_version = CASE WHEN u.renamed THEN u.version ELSE c.named_version END
         FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::bool[])
              AS u(id, name, version, data, renamed)
        WHERE c.id = u.id`,
      [
        change.updated.map((u) => u.id),
        change.updated.map((u) => u.command.name),
        change.updated.map((u) => u.version),
        change.updated.map((u) => JSON.stringify(u.command)),
        change.updated.map((u) => u.renamed),
      ],
    );
  }
  if (change.createsCounted > 0) {
    await db.query(
      `INSERT INTO daily_creates (application_id, guild_id, window_start, count)
       VALUES ($1, $2, ${WINDOW_START}, $4)
       ON CONFLICT (application_id, guild_id, window_start) DO UPDATE SET count = daily_creates.count + $4`,
      [...scopeParams(scope), windowSeconds, change.createsCounted],
    );
  }
  if (change.created.length > 0) {
    await db.query(
      `INSERT INTO command (id, application_id, guild_id, type, name, version, named_version, data)
       SELECT u.id, $1, $2, u.type, u.name, u.id, u.id, u.data::jsonb
         FROM unnest($3::bigint[], $4::int[], $5::text[], $6::text[]) AS u(id, type, name, data)`,
      [
        ...scopeParams(scope),
        change.created.map((c) => c.id),
        change.created.map((c) => c.command.type),
        change.created.map((c) => c.command.name),
        change.created.map((c) => JSON.stringify(c.command)),
      ],
    );
  }
  const changed = change.deleted.length + change.updated.length + change.created.length > 0;
  await writeOutboxRows(db, DB_SCHEMA, [
    ...change.events.map((event) => toOutboxRow(scope, event)),
    // What caches of the scope's commands (interactions' on every replica) drop by.
    ...(changed
      ? [
          createEvent('command-registry.scope.changed', {
            application_id: scope.applicationId,
            guild_id: scope.guildId === '' ? null : scope.guildId,
          }),
        ]
      : []),
  ]);
  await db.query(
    'UPDATE command_scope SET revision = revision + 1 WHERE application_id = $1 AND guild_id = $2',
    scopeParams(scope),
  );
}

/** A planner's event as its catalog event, with the version after the change. */
function toOutboxRow(scope: CommandScope, event: CommandEvent): OutboxRow {
  const fields = commandFields(scope, event.command);
  return event.kind === 'deleted'
    ? createEvent('command-registry.command.deleted', fields)
    : createEvent('command-registry.command.renamed', { ...fields, previous_name: event.previousName });
}

function commandFields(scope: CommandScope, command: VersionedCommand) {
  return {
    application_id: scope.applicationId,
    guild_id: scope.guildId === '' ? null : scope.guildId,
    command_id: command.id,
    type: command.command.type,
    name: command.command.name,
    version: command.version,
  };
}
