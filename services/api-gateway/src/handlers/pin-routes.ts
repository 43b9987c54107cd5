import type { Request, RequestHandler } from 'express';
import { UnauthorizedError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import type { Principal } from '../domain/principal';
import { limitQuery, snowflakeParam } from '../http/path-params';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';

/** The largest (and default) page of pins (D:resources/message.mdx §Get Channel Pins: 1-50, 50). */
const MAX_PINS_PAGE = 50;

/**
 * The pins of a channel (D:resources/message.mdx §Get Channel Pins, §Pin Message, §Unpin
 * Message, and the deprecated `/channels/{id}/pins…` forms, which still answer): over the
 * messages ACS stores, which the interactions service owns and judges (VIEW_CHANNEL, then
 * PIN_MESSAGES; 404 / 10003, 10008). A bot or a user's session may call them; an OAuth2
 * Bearer token gets 401, as for every route that takes no OAuth2 token.
 */
export function pinRoutes(clients: PeerClients, auth: Authenticator): Route[] {
  const { interactions } = clients;

  async function caller(req: Request): Promise<Principal> {
    const principal = await auth.authenticate(req, true);
    if (principal.kind === 'bearer') throw new UnauthorizedError();
    return principal;
  }

  const setPinned =
    (pinned: boolean): RequestHandler =>
    async (req, res) => {
      const principal = await caller(req);
      await interactions.setMessagePinned({
        channelId: snowflakeParam(req, 'channel_id'),
        messageId: snowflakeParam(req, 'message_id'),
        userId: principal.userId,
        ...(principal.kind === 'bot' ? { applicationId: principal.applicationId } : {}),
        pinned,
      });
      sendNoContent(res);
    };

  /** The page of pins `GET …/messages/pins` answers (`{items, has_more}` as JSON text). */
  async function pinsPage(req: Request, principal: Principal, limit: number): Promise<string> {
    const before = req.query.before;
    return interactions.listPinnedMessages({
      channelId: snowflakeParam(req, 'channel_id'),
      userId: principal.userId,
      before: before === undefined ? '' : String(before),
      limit,
    });
  }

  const list: RequestHandler = async (req, res) => {
    const principal = await caller(req);
    sendJson(res, 200, await pinsPage(req, principal, limitQuery(req, MAX_PINS_PAGE)));
  };

  // The deprecated form answers the first 50 pinned messages themselves, newest pin first.
  const listDeprecated: RequestHandler = async (req, res) => {
    const principal = await caller(req);
    const page = JSON.parse(await pinsPage(req, principal, MAX_PINS_PAGE)) as {
      items: { message: unknown }[];
    };
    sendJson(
      res,
      200,
      page.items.map((item) => item.message),
    );
  };

  const credential = 'token-or-session' as const;
  return [
    { method: 'get', path: '/channels/:channel_id/messages/pins', handlers: [list], credential },
    {
      method: 'put',
      path: '/channels/:channel_id/messages/pins/:message_id',
      handlers: [setPinned(true)],
      credential,
    },
    {
      method: 'delete',
      path: '/channels/:channel_id/messages/pins/:message_id',
      handlers: [setPinned(false)],
      credential,
    },
    { method: 'get', path: '/channels/:channel_id/pins', handlers: [listDeprecated], credential },
    {
      method: 'put',
      path: '/channels/:channel_id/pins/:message_id',
      handlers: [setPinned(true)],
      credential,
    },
    {
      method: 'delete',
      path: '/channels/:channel_id/pins/:message_id',
      handlers: [setPinned(false)],
      credential,
    },
  ];
}
