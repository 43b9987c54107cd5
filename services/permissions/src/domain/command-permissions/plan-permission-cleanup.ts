import type { EventPayload } from '@acs/events';

/** The rows a command-registry event removes: the command's overwrites, or those older than a version. */
export interface PermissionCleanup {
  commandId: string;
  /** Only rows checked against an older version (a rename); undefined: all of them (a delete). */
  beforeVersion?: string;
}

/** The command-registry events that remove permissions, as the catalog types them. */
export type CommandRemovalEvent =
  | { name: 'command-registry.command.deleted'; data: EventPayload<'command-registry.command.deleted'> }
  | { name: 'command-registry.command.renamed'; data: EventPayload<'command-registry.command.renamed'> };

/**
 * What a command-registry event means for command permissions (D: "deleting or renaming a
 * command deletes its permissions"): `command.deleted` removes every row of the command
 * (ids are never reused); `command.renamed` removes the rows written before the rename,
 * whose version is older than the one the event carries, so that a late or repeated event
 * keeps overwrites written for the new name.
 */
export function planPermissionCleanup(event: CommandRemovalEvent): PermissionCleanup {
  if (event.name === 'command-registry.command.deleted') return { commandId: event.data.command_id };
  return { commandId: event.data.command_id, beforeVersion: event.data.version };
}
