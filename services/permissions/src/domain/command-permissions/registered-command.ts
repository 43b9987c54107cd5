/**
 * A command as command-registry has it now. permissions asks no other service: its callers
 * ask the registry (`ResolveCommands`, the picker's `ListGuildCommandIndex`) and pass
 * the answer in the request.
 */
export interface RegisteredCommand {
  applicationId: string;
  id: string;
  name: string;
  version: string;
  /** The version at which the command got its current name (its first, or its latest rename's). */
  namedVersion: string;
  /** null when the command has none (everyone may use it by default). */
  defaultMemberPermissions: bigint | null;
}
