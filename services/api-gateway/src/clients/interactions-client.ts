import type { interactions } from '@acs/protos';
import { callPeer } from './call-peer';
import { checkServing } from './check-serving';

/**
 * The own deadline of an invocation that waits for its outcome (`?wait=true`): the
 * outcome comes within the interaction's response deadline (3 s by default, more where a
 * test raises it), and the request's budget (REQUEST_DEADLINE_MS) ends the call sooner,
 * so this only keeps callUnary's 5 s default from cutting a longer test deadline short.
 */
export const WAITING_INVOCATION_DEADLINE_MS = 60_000;

/** A user's invocation of a command, as `POST /interactions` carries it. */
export interface Invocation {
  /** The user of the session token. */
  userId: string;
  /** The body as JSON text (a multipart body's `payload_json`), checked by the service. */
  bodyJson: string;
  /** The requester's locale ('' when none is supported). */
  locale: string;
  /** ACS extension: answer with the outcome once the interaction has one. */
  wait: boolean;
}

/** Which message of an interaction a webhook route names. */
export interface WebhookMessageRef {
  applicationId: string;
  token: string;
  /** `@original` or a message id. */
  messageId: string;
}

/**
 * What api-gateway asks of interactions: a user's invocation, the app's initial
 * response (callback), and its follow-ups and edits through the interaction token's
 * webhook routes. Answers are interactions' JSON text, passed on as is. A failure
 * interactions answers with its own error (50035 trees, 10062, 40060, 50027, 10008…)
 * rejects with that DiscordError; one in transport with 503 or 504.
 */
export interface InteractionsClient {
  /** Whether interactions reports SERVING on its health service. */
  isServing(deadlineMs: number): Promise<boolean>;
  /** Records and delivers an invocation; with `wait`, the outcome as JSON text ('' otherwise). */
  createInteraction(invocation: Invocation): Promise<string>;
  /** The initial response; with `withResponse`, the callback response object as JSON text ('' otherwise). */
  createCallback(input: {
    interactionId: string;
    token: string;
    bodyJson: string;
    withResponse: boolean;
  }): Promise<string>;
  /** A follow-up message (or the edit of a deferred one), as JSON text. */
  createFollowup(input: { applicationId: string; token: string; bodyJson: string }): Promise<string>;
  getWebhookMessage(message: WebhookMessageRef): Promise<string>;
  editWebhookMessage(message: WebhookMessageRef, bodyJson: string): Promise<string>;
  deleteWebhookMessage(message: WebhookMessageRef): Promise<void>;
}

/** A message reference as the webhook RPCs take it. */
function wireMessage(message: WebhookMessageRef, bodyJson = ''): interactions.WebhookMessageRequest {
  return {
    application_id: message.applicationId,
    token: message.token,
    message_id: message.messageId,
    body_json: bodyJson,
  };
}

/** The InteractionsClient over interactions' gRPC client. */
export function createInteractionsClient(client: interactions.InteractionsServiceClient): InteractionsClient {
  return {
    isServing: (deadlineMs) => checkServing(client, deadlineMs),

    async createInteraction(invocation) {
      const answer = await callPeer(
        client,
        client.CreateInteraction,
        {
          user_id: invocation.userId,
          body_json: invocation.bodyJson,
          locale: invocation.locale,
          wait: invocation.wait,
        },
        invocation.wait ? WAITING_INVOCATION_DEADLINE_MS : undefined,
      );
      return answer.outcome_json;
    },

    async createCallback(input) {
      const answer = await callPeer(client, client.CreateCallback, {
        interaction_id: input.interactionId,
        token: input.token,
        body_json: input.bodyJson,
        with_response: input.withResponse,
      });
      return answer.response_json;
    },

    async createFollowup(input) {
      const answer = await callPeer(client, client.CreateFollowup, {
        application_id: input.applicationId,
        token: input.token,
        body_json: input.bodyJson,
      });
      return answer.message_json;
    },

    async getWebhookMessage(message) {
      return (await callPeer(client, client.GetWebhookMessage, wireMessage(message))).message_json;
    },

    async editWebhookMessage(message, bodyJson) {
      return (await callPeer(client, client.EditWebhookMessage, wireMessage(message, bodyJson))).message_json;
    },

    async deleteWebhookMessage(message) {
      await callPeer(client, client.DeleteWebhookMessage, wireMessage(message));
    },
  };
}
