import type { Request, RequestHandler } from 'express';
import { UnauthorizedError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import type { ChannelMessageCall } from '../clients/interactions-client';
import type { PeerClients } from '../clients/peer-clients';
import type { Principal } from '../domain/principal';
import { integerQuery, snowflakeParam, snowflakeQuery } from '../http/path-params';
import { acceptFormPayload } from '../http/read-json-body';
import { readMessageUpload } from '../http/read-message-upload';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';
import { withFiles, type MessageUploads } from './message-files';

/** Get Channel Messages' `limit`: 1-100 (D:resources/message.mdx §Get Channel Messages). */
const MAX_MESSAGES_PAGE = 100;

/**
 * The messages of a channel (D:resources/message.mdx §Create Message, §Get Channel Messages,
 * §Get Channel Message, §Edit Message, §Delete Message, §Bulk Delete Messages; D:resources/channel.mdx
 * §Trigger Typing Indicator), for a bot or a user's session (an
 * OAuth2 Bearer token is 401): the interactions service owns every channel message and
 * judges each call. Bodies are JSON, a form's `payload_json`, or multipart with `files[n]`
 * (streamed into the blob store once interactions said the caller may send files there).
 * Must be mounted after the pin routes: `…/messages/pins` is no message id.
 */
export function messageRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
  uploads?: MessageUploads,
): Route[] {
  const { interactions } = clients;

  async function caller(req: Request): Promise<Principal> {
    const principal = await auth.authenticate(req, true);
    if (principal.kind === 'bearer') throw new UnauthorizedError();
    return principal;
  }

  /** The call of a route: its channel (and message), the caller, and the body as JSON text. */
  async function callOf(req: Request, withMessage: boolean): Promise<ChannelMessageCall> {
    const channelId = snowflakeParam(req, 'channel_id');
    const messageId = withMessage ? snowflakeParam(req, 'message_id') : undefined;
    const principal = await caller(req);
    return {
      channelId,
      ...(messageId === undefined ? {} : { messageId }),
      userId: principal.userId,
      ...(principal.kind === 'bot'
        ? { applicationId: principal.applicationId, applicationFlags: principal.applicationFlags }
        : {}),
      bodyJson: req.rawBody ?? '',
    };
  }

  // Files are stored only for a caller interactions lets send files to the channel.
  const uploadLimit = async (req: Request): Promise<number> => {
    const channelId = snowflakeParam(req, 'channel_id');
    const principal = await caller(req);
    return interactions.describeUpload({ channelId, userId: principal.userId, token: '' });
  };
  const readMessage = uploads
    ? readMessageUpload(
        { blobs: uploads.blobs, maxPayloadBytes: uploads.maxPayloadBytes, uploadLimit },
        readBody,
      )
    : [acceptFormPayload, ...readBody];

  const create: RequestHandler = async (req, res) => {
    const call = await callOf(req, false);
    const message = await withFiles(req, uploads, (files) =>
      interactions.createChannelMessage({ ...call, ...(files ? { files } : {}) }),
    );
    sendJson(res, 200, message);
  };

  const list: RequestHandler = async (req, res) => {
    const channelId = snowflakeParam(req, 'channel_id');
    const query = {
      around: snowflakeQuery(req, 'around'),
      before: snowflakeQuery(req, 'before'),
      after: snowflakeQuery(req, 'after'),
      limit: integerQuery(req, 'limit', 1, MAX_MESSAGES_PAGE) ?? 0,
    };
    const principal = await caller(req);
    sendJson(
      res,
      200,
      await interactions.listChannelMessages({ channelId, userId: principal.userId, ...query }),
    );
  };

  const get: RequestHandler = async (req, res) => {
    sendJson(res, 200, await interactions.getChannelMessage(await callOf(req, true)));
  };

  const edit: RequestHandler = async (req, res) => {
    const call = await callOf(req, true);
    const message = await withFiles(req, uploads, (files) =>
      interactions.editChannelMessage({ ...call, ...(files ? { files } : {}) }),
    );
    sendJson(res, 200, message);
  };

  const remove: RequestHandler = async (req, res) => {
    await interactions.deleteChannelMessage(await callOf(req, true));
    sendNoContent(res);
  };

  const bulkDelete: RequestHandler = async (req, res) => {
    await interactions.bulkDeleteChannelMessages(await callOf(req, false));
    sendNoContent(res);
  };

  // Trigger Typing Indicator (D:resources/channel.mdx): 204, TYPING_START to the channel's
  // audience. A body, if any, is ignored (the route takes none).
  const typing: RequestHandler = async (req, res) => {
    await interactions.triggerTyping({ ...(await callOf(req, false)), bodyJson: '' });
    sendNoContent(res);
  };

  const credential = 'token-or-session' as const;
  const messages = '/channels/:channel_id/messages';
  const message = `${messages}/:message_id`;
  return [
    // Before `…/:message_id`: `bulk-delete` is no message id.
    { method: 'post', path: `${messages}/bulk-delete`, handlers: [...readBody, bulkDelete], credential },
    { method: 'post', path: messages, handlers: [...readMessage, create], credential },
    { method: 'get', path: messages, handlers: [list], credential },
    { method: 'get', path: message, handlers: [get], credential },
    { method: 'patch', path: message, handlers: [...readMessage, edit], credential },
    { method: 'delete', path: message, handlers: [remove], credential },
    { method: 'post', path: '/channels/:channel_id/typing', handlers: [typing], credential },
  ];
}
