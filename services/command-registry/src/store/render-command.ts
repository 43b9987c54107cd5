import { fillLocalizations, type NormalizedCommand } from '../domain';
import type { StoredCommand } from './stored-command';

/**
 * The command object of the wire format (OpenAPI `ApplicationCommandResponse`), keys in
 * the order the real API sends them: identity first, `guild_id` only on guild commands.
 * `command` is the view to show: by default the one with every localization dictionary
 * (fillLocalizations); list endpoints without `with_localizations` pass localizeCommand's.
 */
export function renderCommand(
  stored: StoredCommand,
  command: object = fillLocalizations(stored.command),
): Record<string, unknown> {
  const { type, name, description, default_member_permissions, ...rest } = command as NormalizedCommand;
  return {
    id: stored.id,
    application_id: stored.applicationId,
    version: stored.version,
    default_member_permissions,
    type,
    name,
    description,
    ...(stored.guildId === '' ? {} : { guild_id: stored.guildId }),
    ...rest,
  };
}
