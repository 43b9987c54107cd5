/** The rows a command-registry event removes: the command's overwrites, or those older than a version. */
export interface PermissionCleanup {
  commandId: string;
  /** Only rows checked against an older version (a rename); undefined: all of them (a delete). */
  beforeVersion?: string;
}

const SNOWFLAKE = /^\d{1,20}$/;

/**
 * What a command-registry event means for command permissions (D: "deleting or renaming a
 * command deletes its permissions"): `command.deleted` removes every row of the command
 * (ids are never reused); `command.renamed` removes the rows written before the rename,
 * whose version is older than the one the event carries, so that a late or repeated event
 * keeps overwrites written for the new name. Other events, or malformed ones, mean nothing.
 */
export function planPermissionCleanup(type: string, data: unknown): PermissionCleanup | null {
  if (type !== 'command.deleted' && type !== 'command.renamed') return null;
  if (typeof data !== 'object' || data === null) return null;
  const { command_id: commandId, version } = data as { command_id?: unknown; version?: unknown };
  if (typeof commandId !== 'string' || !SNOWFLAKE.test(commandId)) return null;
  if (type === 'command.deleted') return { commandId };
  if (typeof version !== 'string' || !SNOWFLAKE.test(version)) return null;
  return { commandId, beforeVersion: version };
}
