import type { RequestHandler } from 'express';
import { DiscordError, InvalidRecipientsError, UnauthorizedError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import { dmRecipientCandidates, renderDmChannel } from '../domain/dm-channel';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';

/** Unknown User, as oauth answers a user id it does not know. */
const UNKNOWN_USER = 10013;

/**
 * `POST /users/@me/channels` (D:resources/user.mdx §Create DM; the chat client's
 * `recipients` form too): a bot or a user's session opens the DM with one user, or a new
 * group DM. Every recipient must exist (asked of oauth, in parallel; an unknown one is
 * 400 / 50033 "Invalid Recipient(s)", as Discord answers), then permissions validates the
 * body and opens the channel; the answer carries the recipients' user objects. An OAuth2
 * Bearer token gets 401, as the real API answers a route that takes no OAuth2 token.
 */
export function dmChannelRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
): Route[] {
  const { oauth, permissions } = clients;

  /** The user object of `userId` as others see it; 50033 when oauth knows no such user. */
  async function recipientOf(userId: string): Promise<Record<string, unknown>> {
    try {
      return JSON.parse(await oauth.getPublicUser(userId)) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof DiscordError && error.code === UNKNOWN_USER) throw new InvalidRecipientsError();
      throw error;
    }
  }

  const open: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req, true);
    if (principal.kind === 'bearer') throw new UnauthorizedError();
    const users = new Map<string, Record<string, unknown>>();
    await Promise.all(
      dmRecipientCandidates(req.body).map(async (id) => users.set(id, await recipientOf(id))),
    );
    const { channelJson, recipientIds } = await permissions.openDmChannel(
      principal.userId,
      req.rawBody ?? '',
      principal.kind === 'bot' ? principal.applicationId : undefined,
    );
    // Every id permissions accepted was among the candidates; asking oauth again for one
    // that was not would only cover a disagreement between the two readings of the body.
    const recipients = await Promise.all(
      recipientIds
        .filter((id) => id !== principal.userId)
        .map(async (id) => users.get(id) ?? (await recipientOf(id))),
    );
    sendJson(res, 200, renderDmChannel(JSON.parse(channelJson) as Record<string, unknown>, recipients));
  };

  return [
    {
      method: 'post',
      path: '/users/@me/channels',
      handlers: [...readBody, open],
      credential: 'token-or-session',
    },
  ];
}
