import type { Request, RequestHandler } from 'express';
import { fieldError } from '@acs/discord-errors';
import { isJsonObject } from '@acs/validation';
import type { Authenticator } from '../auth/create-authenticator';
import type { MessageFiles, WebhookMessageRef } from '../clients/interactions-client';
import type { PeerClients } from '../clients/peer-clients';
import {
  InvalidWebhookTokenError,
  isWellFormedInteractionToken,
  UnknownInteractionError,
} from '../domain/interaction-token';
import { resolveRequestLocale } from '../domain/resolve-request-locale';
import {
  booleanQuery,
  integerQuery,
  snowflakeParam,
  snowflakeQuery,
  webhookMessageParam,
} from '../http/path-params';
import { acceptFormPayload, decodeJsonBody } from '../http/read-json-body';
import { FormErrorCode } from '../http/read-form-payload';
import type { Route } from '../http/route-table';
import { withFiles as withMessageFiles, type MessageUploads } from './message-files';
import { readMessageUpload } from '../http/read-message-upload';
import { sendJson, sendNoContent } from '../http/send-json';

export type { MessageUploads } from './message-files';

/** The interaction routes: the invocation (served under `/api/v9` too) and the app's answers. */
export interface InteractionRoutes {
  /** `POST /interactions`: what a user's chat client sends, which calls API v9. */
  invocation: Route[];
  /** The callback and the interaction token's webhook routes. */
  responses: Route[];
}

/** The interaction type whose body may carry files (A8 MODAL_SUBMIT). */
const MODAL_SUBMIT = 5;

/** Interaction routes are exempt from the global rate limit, as on Discord. */
const EXEMPT_FROM_GLOBAL = { global: false };

/**
 * An invocation is counted against its user's work budget (RATE_LIMIT_INVOCATION_COST
 * units of RATE_LIMIT_WORK_PER_SECOND): it costs the stack many reads' worth of work, paid
 * by whoever asks for it (docs/architecture.md, "Fair cost").
 */
const INVOCATION = { ...EXEMPT_FROM_GLOBAL, cost: 'invocation' };

/**
 * The routes that write with an interaction's token share Discord's webhook bucket, per
 * token whoever sends (RATE_LIMIT_WEBHOOK_LIMIT per RATE_LIMIT_WEBHOOK_WINDOW_SECONDS):
 * with the storage quota, what bounds how fast one token can store.
 */
const WEBHOOK_WRITE = { ...EXEMPT_FROM_GLOBAL, bucket: 'webhook', partitionBy: 'webhook_token' };
const CALLBACK_WRITE = { ...EXEMPT_FROM_GLOBAL, bucket: 'webhook', partitionBy: 'interaction_token' };

/** `?wait=final`'s `timeout_ms`: at most a minute (the longest call a peer takes). */
const WAIT_FINAL_MAX_MS = 60_000;

/**
 * The path's interaction token, or `refusal` for one that cannot be a token at all (too
 * long, or characters no token has): the service never sees it.
 */
function tokenParam(req: Request, name: string, refusal: () => Error): string {
  const token = String(req.params[name] ?? '');
  if (!isWellFormedInteractionToken(token)) throw refusal();
  return token;
}

/**
 * The interaction routes (interactions service). `POST /interactions`: a user's
 * chat-client session (no prefix; a bot or Bearer token is 401) invokes a command; 204,
 * or with `?wait=true` (ACS extension) 200 and the outcome, with `?wait=final` the outcome
 * past a deferral (the original filled, the follow-ups posted meanwhile). The rest take no
 * authentication (an Authorization header is ignored): the interaction token is the
 * credential. `POST /interactions/{id}/{token}/callback` answers it (204, or with
 * `?with_response=true` 200 and the callback response); `/webhooks/{application}/{token}`
 * posts follow-ups (200 and the message: `wait` is always true), and `…/messages/{@original
 * | id}` reads, edits and deletes its messages. Bodies are JSON, or a form's `payload_json`.
 * Every error is the service's, rendered as it answered.
 */
export function interactionRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
  uploads?: MessageUploads,
): InteractionRoutes {
  const { interactions } = clients;
  const readPayload = [acceptFormPayload, ...readBody];
  /** A message route's body: with `uploads`, multipart files are streamed into the blob store first. */
  const readMessage = (uploadLimit: (req: Request) => Promise<number>) =>
    uploads
      ? readMessageUpload(
          { blobs: uploads.blobs, maxPayloadBytes: uploads.maxPayloadBytes, uploadLimit },
          readBody,
        )
      : readPayload;

  const withFiles = <T>(req: Request, call: (files: MessageFiles | undefined) => Promise<T>): Promise<T> =>
    withMessageFiles(req, uploads, call);

  const invoke: RequestHandler = async (req, res) => {
    const principal = await auth.authenticateSession(req);
    // `?wait=final` (ACS extension): past a deferral too, `timeout_ms` at most 60 s.
    const waitFinal = req.query.wait === 'final';
    const wait = waitFinal || booleanQuery(req, 'wait');
    const waitTimeoutMs = waitFinal ? integerQuery(req, 'timeout_ms', 1, WAIT_FINAL_MAX_MS) : undefined;
    const outcome = await withFiles(req, (files) =>
      interactions.createInteraction({
        userId: principal.userId,
        bodyJson: req.rawBody ?? '',
        locale: resolveRequestLocale(req.headers, principal.userLocale),
        wait,
        waitFinal,
        ...(waitTimeoutMs === undefined ? {} : { waitTimeoutMs }),
        ...(files ? { files } : {}),
      }),
    );
    if (wait) sendJson(res, 200, outcome);
    else sendNoContent(res);
  };

  const callback: RequestHandler = async (req, res) => {
    const interactionId = snowflakeParam(req, 'interaction_id');
    const token = tokenParam(req, 'interaction_token', () => new UnknownInteractionError());
    const withResponse = booleanQuery(req, 'with_response');
    const response = await withFiles(req, (files) =>
      interactions.createCallback({
        interactionId,
        token,
        bodyJson: req.rawBody ?? '',
        withResponse,
        ...(files ? { files } : {}),
      }),
    );
    // Whose call this was, for the request log (the token alone does not say).
    res.locals.callerApplicationId = response.applicationId;
    if (withResponse) sendJson(res, 200, response.responseJson);
    else sendNoContent(res);
  };

  /** The application id and token of a webhook route, checked at the edge. */
  function webhookOf(req: Request) {
    const applicationId = snowflakeParam(req, 'webhook_id');
    const token = tokenParam(req, 'webhook_token', () => new InvalidWebhookTokenError());
    // Known query parameters are checked, then have no effect: an interaction's messages
    // live in no thread, and components are not checked yet (the next issue).
    snowflakeQuery(req, 'thread_id');
    return { applicationId, token };
  }

  /** A webhook message route's message, checked at the edge. */
  function messageOf(req: Request): WebhookMessageRef {
    return { ...webhookOf(req), messageId: webhookMessageParam(req, 'message_id') };
  }

  const followup: RequestHandler = async (req, res) => {
    const webhook = webhookOf(req);
    // `wait` is always true for an interaction's webhook: the message is answered.
    booleanQuery(req, 'wait');
    booleanQuery(req, 'with_components');
    const message = await withFiles(req, (files) =>
      interactions.createFollowup({ ...webhook, bodyJson: req.rawBody ?? '', ...(files ? { files } : {}) }),
    );
    sendJson(res, 200, message);
  };

  const getMessage: RequestHandler = async (req, res) => {
    sendJson(res, 200, await interactions.getWebhookMessage(messageOf(req)));
  };

  const editMessage: RequestHandler = async (req, res) => {
    const message = messageOf(req);
    booleanQuery(req, 'with_components');
    const edited = await withFiles(req, (files) =>
      interactions.editWebhookMessage(message, req.rawBody ?? '', files),
    );
    sendJson(res, 200, edited);
  };

  const deleteMessage: RequestHandler = async (req, res) => {
    await interactions.deleteWebhookMessage(messageOf(req));
    sendNoContent(res);
  };

  const webhookUploadLimit = (req: Request) => interactions.describeUpload(webhookOf(req));

  /**
   * A user's modal submit with files: the session's user, and the modal `data.id` names (it
   * must be theirs and open), checked before the first file is stored; its limit is the
   * limit of the interaction that opened it. Any other body carries no files.
   */
  const modalUploadLimit = async (req: Request, payloadJson = ''): Promise<number> => {
    const principal = await auth.authenticateSession(req);
    const { body } = decodeJsonBody(Buffer.from(payloadJson, 'utf8'));
    const data = isJsonObject(body) ? body.data : undefined;
    if (
      !isJsonObject(body) ||
      body.type !== MODAL_SUBMIT ||
      !isJsonObject(data) ||
      typeof data.id !== 'string'
    ) {
      throw fieldError(
        'files',
        FormErrorCode.ATTACHMENTS_NOT_SUPPORTED,
        'Only a modal submit (type 5) carries files',
      );
    }
    return interactions.describeUpload({ interactionId: data.id, userId: principal.userId, token: '' });
  };
  const readInvocation = uploads
    ? readMessageUpload(
        {
          blobs: uploads.blobs,
          maxPayloadBytes: uploads.maxPayloadBytes,
          uploadLimit: modalUploadLimit,
          limitFromPayload: true,
        },
        readBody,
      )
    : readPayload;
  const webhook = '/webhooks/:webhook_id/:webhook_token';
  const message = `${webhook}/messages/:message_id`;
  return {
    invocation: [
      {
        method: 'post',
        path: '/interactions',
        handlers: [...readInvocation, invoke],
        credential: 'session',
        rateLimit: INVOCATION,
      },
    ],
    responses: [
      {
        method: 'post',
        path: '/interactions/:interaction_id/:interaction_token/callback',
        handlers: [
          ...readMessage((req) =>
            interactions.describeUpload({
              interactionId: snowflakeParam(req, 'interaction_id'),
              token: tokenParam(req, 'interaction_token', () => new UnknownInteractionError()),
            }),
          ),
          callback,
        ],
        rateLimit: CALLBACK_WRITE,
      },
      {
        method: 'post',
        path: webhook,
        handlers: [...readMessage(webhookUploadLimit), followup],
        rateLimit: WEBHOOK_WRITE,
      },
      { method: 'get', path: message, handlers: [getMessage], rateLimit: EXEMPT_FROM_GLOBAL },
      {
        method: 'patch',
        path: message,
        handlers: [...readMessage(webhookUploadLimit), editMessage],
        rateLimit: WEBHOOK_WRITE,
      },
      { method: 'delete', path: message, handlers: [deleteMessage], rateLimit: EXEMPT_FROM_GLOBAL },
    ],
  };
}
