/** What the command index reads of a command object (more fields pass through). */
export interface IndexedCommand {
  id: string;
  application_id: string;
  version: string;
}

/** An application of a guild's index (more fields pass through). */
export interface IndexedApplication {
  id: string;
}

/**
 * A command as command-registry has it now (its name not localized): what permissions
 * decides with, since it calls no other service.
 */
export interface RegisteredCommand {
  applicationId: string;
  commandId: string;
  name: string;
  /** Decimal bit set; '' when the command has none. */
  defaultMemberPermissions: string;
  version: string;
  /** The version at which it got its current name ('' lets the name alone decide). */
  namedVersion: string;
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
