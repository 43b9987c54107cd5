import { DiscordError } from '@acs/discord-errors';
import { hasScope, type Principal } from './principal';

/**
 * A Bearer principal must hold `scope`: 403 / 50026 naming it otherwise. Not 401, which
 * would make @discordjs/rest drop a token that is valid, only too narrow. Bots pass.
 */
export function requireScope(principal: Principal, scope: string): void {
  if (principal.kind === 'bearer' && !hasScope(principal, scope)) {
    throw new DiscordError(403, 50026, `Missing required OAuth2 scope: ${scope}`);
  }
}

/** A bot-only route: 403 / 20002 for anyone else (a Bearer token is valid, only not a bot's). */
export function requireBot(principal: Principal): void {
  if (principal.kind !== 'bot') throw new DiscordError(403, 20002, 'Only bots can use this endpoint');
}

/** A Bearer-only route: 403 / 20001 for a bot. */
export function requireBearer(principal: Principal): void {
  if (principal.kind !== 'bearer') throw new DiscordError(403, 20001, 'Bots cannot use this endpoint');
}
