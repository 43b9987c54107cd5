import type { CommandChange, VersionedCommand } from './command-change';
import { UnknownCommandError } from './command-errors';

/**
 * DELETE: 10063 when the scope has no such command; otherwise the command goes and
 * `command.deleted` announces it. The entry point may be deleted this way (not by a bulk overwrite).
 */
export function planDelete(current: VersionedCommand | undefined): CommandChange {
  if (!current) throw new UnknownCommandError();
  return {
    deleted: [current.id],
    updated: [],
    created: [],
    createsCounted: 0,
    events: [{ kind: 'deleted', command: current }],
  };
}
