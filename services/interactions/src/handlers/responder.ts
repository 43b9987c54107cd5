import { DiscordError } from '@acs/discord-errors';
import {
  CallbackType,
  InteractionAlreadyAcknowledgedError,
  UnknownInteractionError,
  checkCallbackToken,
  focusedOptionType,
  peekCallbackType,
  renderCallbackResponse,
  validateCallback,
  withForcedEphemeralCallback,
  type ValidCallback,
} from '../domain/callbacks';
import { InteractionType } from '../domain/interaction-enums';
import type { UploadedFile } from '../domain/messages';
import type { OAuthClient } from '../clients/oauth-client';
import type { InteractionRecord } from '../store/interaction-record';
import type { ResponseStore } from '../store/response-store';
import type { TraceStore } from '../store/trace-store';
import { capBody } from '../domain/timeline';
import { describeApplication, type ApplicationFacts, type ApplicationFactsMemo } from './application-facts';

/** What the responder needs. */
export interface ResponderDeps {
  responses: ResponseStore;
  oauth: OAuthClient;
  /** The application facts this replica's invocations had at hand: a callback asks oauth only without them. */
  applications: ApplicationFactsMemo;
  /** Where a refused callback is noted, for the timeline (and the reason of a later timeout). */
  traces: Pick<TraceStore, 'noteRefusal'>;
}

/** One initial response to record. */
export interface RespondInput {
  interactionId: string;
  /** The callback route's token; not needed for an `inline` answer. */
  token?: string;
  /** The interaction response `{type, data?}`, parsed from JSON. */
  body: unknown;
  /** `?with_response=true`: answer with the callback response object. */
  withResponse: boolean;
  /** The app answered the signed POST itself (200 + JSON): the delivery vouches for it, no token. */
  inline?: boolean;
  /** The application's facts when the caller has them at hand (the delivery does): saves asking oauth. */
  application?: ApplicationFacts;
  /**
   * With `inline`: the interaction as the delivery recorded it, saves reading it back. Its
   * state is then the conditional update's to judge (and, for an answer refused, the row's).
   */
  record?: InteractionRecord;
  /** A multipart body's files, for callback 4's message. */
  files?: readonly UploadedFile[];
  /** Where api-gateway serves attachments: their `url`. */
  attachmentBaseUrl?: string;
}

/** Records initial responses, from the callback route or from an endpoint's inline answer. */
export interface Responder {
  /** The callback response object as JSON with `withResponse` (else ''), and the interaction's application. */
  respond(input: RespondInput): Promise<{ json: string; applicationId: string }>;
}

// Callback types that make a message (need the author), launch an Activity (need the
// flags) or open a modal (the user's client shows the application's name).
const NEEDS_APPLICATION: readonly number[] = [
  CallbackType.CHANNEL_MESSAGE_WITH_SOURCE,
  CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
  CallbackType.MODAL,
  CallbackType.LAUNCH_ACTIVITY,
];

/**
 * The responder: finds the interaction (its token checked unless inline), refuses what
 * cannot be its initial response any more (40060, 10062) before asking anything of a
 * peer, validates the response against the interaction, and records it in one statement
 * whose conditional update settles any race.
 */
export function createResponder({ responses, oauth, applications, traces }: ResponderDeps): Responder {
  return {
    async respond(input) {
      const handed = input.inline ? input.record : undefined;
      const record = handed ?? (await findAnswerable(responses, input));

      const wanted = peekCallbackType(input.body);
      const needsApplication =
        record.type !== InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE &&
        wanted !== undefined &&
        NEEDS_APPLICATION.includes(wanted);
      const application = needsApplication
        ? (input.application ?? applications.recall(record.id) ?? (await describeApplication(oauth, record)))
        : undefined;
      const focused = focusedOptionType(record.payload);
      let callback: ValidCallback;
      try {
        callback = validateCallback(input.body, {
          interactionType: record.type,
          fromComponent: record.messageId !== null,
          applicationFlags: application?.applicationFlags ?? 0,
          ...(focused !== undefined ? { focusedOptionType: focused } : {}),
          ...(input.files ? { files: input.files } : {}),
        });
      } catch (error) {
        // A refusal of what can no longer be the initial response is 40060 or 10062, as
        // for a callback: a handed record's row is read only now that it matters.
        if (handed) checkAnswerable(await responses.find(handed.id));
        // The interaction could still take an answer, and this one was refused: the timeline
        // says so, and so will the reason it fails with if no answer is taken in time.
        if (error instanceof DiscordError) {
          await traces
            .noteRefusal(record.id, {
              at: new Date().toISOString(),
              status: error.httpStatus,
              body: capBody(error.toBody()),
            })
            .catch(() => undefined); // a note: the refusal itself is the answer
        }
        throw error;
      }
      const made = await responses.acknowledge(
        record,
        withForcedEphemeralCallback(record, callback),
        application?.botUser,
        input.attachmentBaseUrl ?? '',
      );
      const { applicationId } = record;
      if (!input.withResponse) return { json: '', applicationId };
      const json = JSON.stringify(
        renderCallbackResponse({
          interactionId: record.id,
          interactionType: record.type,
          callbackType: callback.type,
          ...made,
        }),
      );
      return { json, applicationId };
    },
  };
}

/** The interaction a response names (its token checked unless inline), if it can still take one. */
export async function findAnswerable(
  responses: ResponseStore,
  input: RespondInput,
): Promise<InteractionRecord> {
  const record = await responses.find(input.interactionId);
  if (!input.inline) checkCallbackToken(record, input.token ?? '');
  return checkAnswerable(record);
}

/** 10062 for an unknown, failed or overdue interaction, 40060 for an acknowledged one. */
function checkAnswerable(record: InteractionRecord | undefined): InteractionRecord {
  if (!record) throw new UnknownInteractionError();
  if (record.state === 'acknowledged') throw new InteractionAlreadyAcknowledgedError();
  if (record.state === 'failed' || record.pastDeadline) throw new UnknownInteractionError();
  return record;
}
