import type { RequestHandler } from 'express';
import { DiscordError, MissingAccessError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import type { Route } from '../http/route-table';

/**
 * `POST /guilds`, which apps may no longer call (D:change-log.mdx, "Deprecating Guild
 * Creation by Apps", April 15, 2025, and "Guild Create Deprecation", July 28, 2025: the
 * endpoint is gone for applications and from the documentation). A bot gets what Discord
 * answers it since then, 403 / 20001 "Bots cannot use this endpoint" (observed, e.g.
 * aiko-chan-ai/DiscordBotClient#271). ACS creates guilds only through the admin API, so an
 * OAuth2 Bearer token or a user's session gets 403 / 50001: the token is valid (no 401,
 * which would make @discordjs/rest drop it), the route is not theirs here. Nothing is read
 * from the body: the refusal comes before it, whatever it holds.
 */
export function guildCreationRoutes(auth: Authenticator): Route[] {
  const create: RequestHandler = async (req) => {
    const principal = await auth.authenticate(req, true);
    if (principal.kind === 'bot') throw new DiscordError(403, 20001, 'Bots cannot use this endpoint');
    throw new MissingAccessError();
  };
  return [{ method: 'post', path: '/guilds', handlers: [create], credential: 'token-or-session' }];
}
