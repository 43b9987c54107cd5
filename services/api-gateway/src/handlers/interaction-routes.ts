import type { Request, RequestHandler } from 'express';
import type { Authenticator } from '../auth/create-authenticator';
import type { WebhookMessageRef } from '../clients/interactions-client';
import type { PeerClients } from '../clients/peer-clients';
import {
  InvalidWebhookTokenError,
  isWellFormedInteractionToken,
  UnknownInteractionError,
} from '../domain/interaction-token';
import { resolveRequestLocale } from '../domain/resolve-request-locale';
import { booleanQuery, snowflakeParam, snowflakeQuery, webhookMessageParam } from '../http/path-params';
import { acceptFormPayload } from '../http/read-json-body';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';

/** The interaction routes: the invocation (served under `/api/v9` too) and the app's answers. */
export interface InteractionRoutes {
  /** `POST /interactions`: what a user's chat client sends, which calls API v9. */
  invocation: Route[];
  /** The callback and the interaction token's webhook routes. */
  responses: Route[];
}

/** Interaction routes are exempt from the global rate limit, as on Discord. */
const EXEMPT_FROM_GLOBAL = { global: false };

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
 * or with `?wait=true` (ACS extension) 200 and the outcome. The rest take no
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
): InteractionRoutes {
  const { interactions } = clients;
  const readPayload = [acceptFormPayload, ...readBody];

  const invoke: RequestHandler = async (req, res) => {
    const principal = await auth.authenticateSession(req);
    const wait = booleanQuery(req, 'wait');
    const outcome = await interactions.createInteraction({
      userId: principal.userId,
      bodyJson: req.rawBody ?? '',
      locale: resolveRequestLocale(req.headers, principal.userLocale),
      wait,
    });
    if (wait) sendJson(res, 200, outcome);
    else sendNoContent(res);
  };

  const callback: RequestHandler = async (req, res) => {
    const interactionId = snowflakeParam(req, 'interaction_id');
    const token = tokenParam(req, 'interaction_token', () => new UnknownInteractionError());
    const withResponse = booleanQuery(req, 'with_response');
    const response = await interactions.createCallback({
      interactionId,
      token,
      bodyJson: req.rawBody ?? '',
      withResponse,
    });
    if (withResponse) sendJson(res, 200, response);
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
    sendJson(res, 200, await interactions.createFollowup({ ...webhook, bodyJson: req.rawBody ?? '' }));
  };

  const getMessage: RequestHandler = async (req, res) => {
    sendJson(res, 200, await interactions.getWebhookMessage(messageOf(req)));
  };

  const editMessage: RequestHandler = async (req, res) => {
    const message = messageOf(req);
    booleanQuery(req, 'with_components');
    sendJson(res, 200, await interactions.editWebhookMessage(message, req.rawBody ?? ''));
  };

  const deleteMessage: RequestHandler = async (req, res) => {
    await interactions.deleteWebhookMessage(messageOf(req));
    sendNoContent(res);
  };

  const webhook = '/webhooks/:webhook_id/:webhook_token';
  const message = `${webhook}/messages/:message_id`;
  return {
    invocation: [
      {
        method: 'post',
        path: '/interactions',
        handlers: [...readPayload, invoke],
        credential: 'session',
        rateLimit: EXEMPT_FROM_GLOBAL,
      },
    ],
    responses: [
      {
        method: 'post',
        path: '/interactions/:interaction_id/:interaction_token/callback',
        handlers: [...readPayload, callback],
        rateLimit: EXEMPT_FROM_GLOBAL,
      },
      { method: 'post', path: webhook, handlers: [...readPayload, followup], rateLimit: EXEMPT_FROM_GLOBAL },
      { method: 'get', path: message, handlers: [getMessage], rateLimit: EXEMPT_FROM_GLOBAL },
      {
        method: 'patch',
        path: message,
        handlers: [...readPayload, editMessage],
        rateLimit: EXEMPT_FROM_GLOBAL,
      },
      { method: 'delete', path: message, handlers: [deleteMessage], rateLimit: EXEMPT_FROM_GLOBAL },
    ],
  };
}
