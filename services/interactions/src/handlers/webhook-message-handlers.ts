import type { interactions } from '@acs/protos';
import { parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { UnknownWebhookError, checkWebhookToken, withForcedEphemeral } from '../domain/callbacks';
import { InteractionType } from '../domain/interaction-enums';
import { interactionIdOfToken } from '../domain/interaction-token';
import { validateMessage, validateMessageEdit } from '../domain/messages';
import type { OAuthClient } from '../clients/oauth-client';
import type { InteractionRecord } from '../store/interaction-record';
import type { MessageStore, MessageTarget } from '../store/message-store';
import type { ResponseStore } from '../store/response-store';
import type { TraceStore } from '../store/trace-store';
import { traceStep } from '../domain/timeline';
import { describeApplication } from './application-facts';
import { uploadedFilesOf } from './uploaded-files';

/** What the webhook message handlers need. */
export interface WebhookMessageHandlerDeps {
  responses: ResponseStore;
  messages: MessageStore;
  oauth: OAuthClient;
  /** Where follow-ups, edits and deletions are noted, for the timeline and `?wait=final`. */
  traces: Pick<TraceStore, 'noteStep'>;
}

/** The path's `@original`, which names the interaction's response message. */
const ORIGINAL = '@original';

/**
 * The webhook routes of an interaction token (`/webhooks/{application_id}/{token}` and its
 * `/messages/{@original|message_id}`): no authentication, the token is the credential
 * (401 / 50027 when it is not a live token of this application).
 */
export function createWebhookMessageHandlers({
  responses,
  messages,
  oauth,
  traces,
}: WebhookMessageHandlerDeps) {
  const authenticate = (req: { application_id: string; token: string }) =>
    authenticateWebhook(responses, req);

  return {
    async CreateFollowup(req: interactions.CreateFollowupRequest__Output) {
      const record = await authenticate(req);
      // An interaction's webhook exists once it has its initial response (never for an autocomplete).
      if (
        record.state !== 'acknowledged' ||
        record.type === InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE
      ) {
        throw new UnknownWebhookError();
      }
      const input = validateMessage(parseJsonBody(req.body_json), [], uploadedFilesOf(req.files));
      // The author comes from the original response; without one (LAUNCH_ACTIVITY) from oauth.
      const botUser =
        record.originalMessageId === null ? (await describeApplication(oauth, record)).botUser : undefined;
      const message = await messages.createFollowup(
        record,
        withForcedEphemeral(record, input),
        botUser,
        req.attachment_base_url,
      );
      const id = String(message.id);
      // The first follow-up of a deferred message fills the original.
      await noted(
        traces,
        record.id,
        traceStep('followup', id, id === record.originalMessageId, message, new Date()),
      );
      return { message_json: JSON.stringify(message) };
    },

    async GetWebhookMessage(req: interactions.WebhookMessageRequest__Output) {
      const record = await authenticate(req);
      const message = await messages.get(record, targetOf(req.message_id));
      return { message_json: JSON.stringify(message) };
    },

    async EditWebhookMessage(req: interactions.WebhookMessageRequest__Output) {
      const record = await authenticate(req);
      const target = targetOf(req.message_id);
      const edit = validateMessageEdit(parseJsonBody(req.body_json), [], uploadedFilesOf(req.files));
      const message = await messages.edit(record, target, edit, req.attachment_base_url);
      const id = String(message.id);
      await noted(traces, record.id, traceStep('edit', id, isOriginal(record, target), message, new Date()));
      return { message_json: JSON.stringify(message) };
    },

    async DeleteWebhookMessage(req: interactions.WebhookMessageRequest__Output) {
      const record = await authenticate(req);
      const target = targetOf(req.message_id);
      await messages.remove(record, target);
      const id = target.original ? (record.originalMessageId ?? record.messageId ?? '') : target.id;
      await noted(traces, record.id, traceStep('delete', id, isOriginal(record, target), null, new Date()));
      return {};
    },
  };
}

/** The interaction a webhook route's token names: 401 / 50027 unless a live token of this application. */
export async function authenticateWebhook(
  responses: ResponseStore,
  req: { application_id: string; token: string },
): Promise<InteractionRecord> {
  const applicationId = readPathSnowflake('webhook_id', req.application_id);
  const interactionId = interactionIdOfToken(req.token);
  const record = interactionId === undefined ? undefined : await responses.find(interactionId);
  checkWebhookToken(record, applicationId, req.token);
  return record;
}

/**
 * Notes a step in the timeline. The message was written already: a note that fails (the
 * trace is a record, not the message) does not turn the route's answer into an error.
 */
async function noted(
  traces: Pick<TraceStore, 'noteStep'>,
  interactionId: string,
  step: Parameters<TraceStore['noteStep']>[1],
): Promise<void> {
  await traces.noteStep(interactionId, step).catch(() => undefined);
}

/** Whether a webhook route's target is the interaction's original response. */
function isOriginal(record: InteractionRecord, target: MessageTarget): boolean {
  return target.original || target.id === record.originalMessageId;
}

function targetOf(messageId: string): MessageTarget {
  if (messageId === ORIGINAL) return { original: true };
  return { original: false, id: readPathSnowflake('message_id', messageId) };
}
