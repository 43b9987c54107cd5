import type { CommandDirectory, ResolvedCommand } from '../../src/clients/command-directory';

/**
 * command-registry as seen from permissions, for tests: the network edge, so a map of the
 * commands that exist (the registry's own tests cover ResolveCommands against PostgreSQL).
 */
export class FakeCommandDirectory implements CommandDirectory {
  readonly commands = new Map<string, ResolvedCommand & { applicationId: string }>();

  /** Registers (or renames, or bumps) a command. */
  put(applicationId: string, command: ResolvedCommand): void {
    this.commands.set(command.id, { ...command, applicationId });
  }

  async resolve(applicationId: string, _guildId: string, commandIds: readonly string[]) {
    const found = new Map<string, ResolvedCommand>();
    for (const id of commandIds) {
      const command = this.commands.get(id);
      if (command && command.applicationId === applicationId) found.set(id, command);
    }
    return found;
  }
}
