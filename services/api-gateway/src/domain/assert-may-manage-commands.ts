import { DiscordError } from '@acs/discord-errors';
import { hasScope, type Principal } from './principal';

/** Scope a Bearer token needs to manage its application's commands. */
const COMMANDS_UPDATE_SCOPE = 'applications.commands.update';

/**
 * The caller must be the application's bot, or a Bearer token granted to that
 * application with `applications.commands.update`: a user's session is 401, another
 * application's token 403 / 20012, a Bearer token without the scope 403 / 50026.
 */
export function assertMayManageCommands(principal: Principal, applicationId: string): void {
  if (principal.kind === 'user') throw new DiscordError(401, 0, '401: Unauthorized');
  if (principal.applicationId !== applicationId) {
    throw new DiscordError(403, 20012, 'You are not authorized to perform this action on this application');
  }
  if (principal.kind === 'bearer' && !hasScope(principal, COMMANDS_UPDATE_SCOPE)) {
    throw new DiscordError(403, 50026, `Missing required OAuth2 scope: ${COMMANDS_UPDATE_SCOPE}`);
  }
}
