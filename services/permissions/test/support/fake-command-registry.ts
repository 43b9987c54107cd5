import type { permissions } from '@acs/protos';

/** A command as a test registers it. */
export interface FakeCommand {
  id: string;
  name: string;
  version: string;
  namedVersion: string;
  defaultMemberPermissions: bigint | null;
}

/**
 * command-registry as permissions' callers see it, for tests: the commands that exist now,
 * which a test passes in its requests as api-gateway does after asking the registry
 * (the registry's own tests cover ResolveCommands against PostgreSQL).
 */
export class FakeCommandRegistry {
  readonly commands = new Map<string, FakeCommand & { applicationId: string }>();

  /** Registers (or renames, or bumps) a command. */
  put(applicationId: string, command: FakeCommand): void {
    this.commands.set(command.id, { ...command, applicationId });
  }

  /** What ResolveCommands answers for these ids of the app (or all its commands), as a request's `commands`. */
  resolve(applicationId: string, ids: readonly string[] | 'all'): permissions.RegisteredCommand[] {
    return [...this.commands.values()]
      .filter((c) => c.applicationId === applicationId && (ids === 'all' || ids.includes(c.id)))
      .map((c) => ({
        application_id: c.applicationId,
        command_id: c.id,
        name: c.name,
        default_member_permissions: c.defaultMemberPermissions?.toString() ?? '',
        version: c.version,
        named_version: c.namedVersion,
      }));
  }
}
