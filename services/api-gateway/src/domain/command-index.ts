/** A command of a guild's index, as command-registry renders it (more fields pass through). */
export interface IndexedCommand {
  id: string;
  application_id: string;
  version: string;
  name: string;
  default_member_permissions: string | null;
}

/** An application of a guild's index (more fields pass through). */
export interface IndexedApplication {
  id: string;
}

/** A command as permissions is asked whether a member may use it. */
export interface CommandCandidate {
  applicationId: string;
  commandId: string;
  name: string;
  /** '' when the command has none. */
  defaultMemberPermissions: string;
}

/** The candidates permissions filters, for the commands of an index. */
export function candidatesOf(commands: readonly IndexedCommand[]): CommandCandidate[] {
  return commands.map((c) => ({
    applicationId: c.application_id,
    commandId: c.id,
    name: c.name,
    defaultMemberPermissions: c.default_member_permissions ?? '',
  }));
}

/**
 * The command picker's answer: the commands a member may use (`usable`, their ids), the
 * applications they belong to, and the index's version, the newest command version in
 * it ("0" when empty).
 */
export function usableCommandIndex(
  commands: readonly IndexedCommand[],
  applications: readonly IndexedApplication[],
  usable: readonly string[],
): { applications: IndexedApplication[]; application_commands: IndexedCommand[]; version: string } {
  const allowed = new Set(usable);
  const application_commands = commands.filter((c) => allowed.has(c.id));
  const appIds = new Set(application_commands.map((c) => c.application_id));
  const version = application_commands.reduce(
    (max, c) => (BigInt(c.version) > BigInt(max) ? c.version : max),
    '0',
  );
  return { applications: applications.filter((a) => appIds.has(a.id)), application_commands, version };
}
