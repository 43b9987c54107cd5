import type { commandRegistry, permissions } from '@acs/protos';
import { call } from '../clients/backend-clients';

/**
 * What command-registry says of an app's commands in a guild (global and that guild's):
 * those among `commandIds`, or `'all'` of them, in the form permissions takes them.
 * permissions calls no other service: whoever asks it about commands asks the registry
 * first and passes its answer on.
 */
export async function resolveCommands(
  registry: commandRegistry.CommandRegistryServiceClient,
  ids: { application_id: string; guild_id: string },
  commandIds: readonly string[] | 'all',
): Promise<permissions.RegisteredCommand[]> {
  if (commandIds !== 'all' && commandIds.length === 0) return [];
  const answer = await call(registry, registry.ResolveCommands, {
    ...ids,
    command_ids: commandIds === 'all' ? [] : [...commandIds],
    all: commandIds === 'all',
  });
  // Asked for one app: its commands are that app's.
  return answer.commands.map((c) => toRegisteredCommand({ ...c, application_id: ids.application_id }));
}

/** A command as command-registry describes it (`ResolvedCommand`), as permissions takes it. */
export function toRegisteredCommand(
  command: commandRegistry.ResolvedCommand__Output,
): permissions.RegisteredCommand {
  return {
    application_id: command.application_id,
    command_id: command.id,
    name: command.name,
    default_member_permissions: command.default_member_permissions,
    version: command.version,
    named_version: command.named_version,
  };
}
