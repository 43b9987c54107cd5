import { snowflakeTimestamp } from '@acs/snowflake';
import type { JsonObject } from '@acs/validation';
import {
  interactionAudienceOf,
  interactionEvent,
  messageAudienceOf,
  type InteractionEvent,
  type InteractionParties,
  type MessageParties,
} from '../interaction-events';
import { applyMessageEdit } from '../messages/apply-message-edit';
import type { AttachmentSigner } from '../messages/attachment-signing';
import { makeAttachments, type MadeAttachment } from '../messages/attachments';
import { MessageFlag, hasFlag } from '../messages/message-flags';
import { UnknownMessageError } from '../messages/message-errors';
import { readMessageSource } from '../messages/message-source';
import { renderLoadingMessage, renderMessage, type InteractionMessage } from '../messages/render-message';
import { activityInstanceId } from './activity-instance-id';
import { InteractionAlreadyAcknowledgedError, UnknownInteractionError } from './callback-errors';
import { CallbackType } from './callback-types';
import type { ValidCallback } from './validate-callback';

/** What an initial response made. */
export interface Acknowledgement {
  /** Callbacks 4 and 5: the response message (5: the loading message); 7: the message updated. */
  message?: InteractionMessage;
  /** Callback 12: the launched Activity instance. */
  activityInstanceId?: string;
}

/** The interaction as an initial response reads it. */
export interface AcknowledgedInteraction extends InteractionParties, MessageParties {
  /** The interaction object the app received, without its token (its messages' source). */
  payload: JsonObject;
  /** Components (and modals opened from one): the message the component is on. */
  messageId: string | null;
}

/** UPDATE_MESSAGE (7): the component's message as the store read it (not deleted), and who sees it. */
export interface MessageToUpdate {
  body: InteractionMessage;
  ephemeralUserId: string | null;
}

/** What an initial response needs besides the interaction and the callback. */
export interface AcknowledgementContext {
  /** Callback 7: the component's message; undefined when it is gone. */
  current?: MessageToUpdate;
  /** The bot's user object: the author of callbacks 4 and 5, the application over a modal. */
  botUser?: JsonObject;
  /** Where the files of callback 4 are served, and what signs their URLs. */
  baseUrl: string;
  signer: Pick<AttachmentSigner, 'sign'>;
  /** A new snowflake (the response message, then its attachments, in that order). */
  nextId: () => string;
  /** The time of an edit (callback 7). */
  now: Date;
}

/** The message an initial response writes: none, a new one (4, 5) or the component's, edited (7). */
export type ResponseMessageWrite =
  | { kind: 'none' }
  | { kind: 'create'; message: InteractionMessage; ephemeral: boolean; attachments: MadeAttachment[] }
  | { kind: 'update'; message: InteractionMessage };

/**
 * An initial response, decided before anything is written: the interaction's new columns,
 * its message, the events in the order its audiences receive them, and the answer.
 */
export interface AcknowledgementPlan {
  responseType: number;
  /** `{type, data}` as validated, kept on the interaction (the wait outcome shows it). */
  response: JsonObject;
  /** The response message (`@original`); 6 and 7: the component's message. */
  originalMessageId: string | null;
  activityInstanceId: string | null;
  write: ResponseMessageWrite;
  /** INTERACTION_SUCCESS first, then the message, the autocomplete answer or the modal. */
  events: InteractionEvent[];
  made: Acknowledgement;
}

/**
 * Plans the initial response `callback` to `interaction`. 404 / 10008 for UPDATE_MESSAGE
 * when the component's message is gone (its edit's errors at `data…`).
 */
export function planAcknowledgement(
  interaction: AcknowledgedInteraction,
  callback: ValidCallback,
  context: AcknowledgementContext,
): AcknowledgementPlan {
  const write = messageWriteOf(interaction, callback, context);
  const made: Acknowledgement = write.kind === 'none' ? {} : { message: write.message };
  if (callback.type === CallbackType.LAUNCH_ACTIVITY) {
    made.activityInstanceId = activityInstanceId(interaction.id, interaction.guildId, interaction.channelId);
  }
  const events: InteractionEvent[] = [
    interactionEvent('interactions.interaction.succeeded', interactionAudienceOf(interaction)),
  ];
  if (write.kind === 'update') {
    events.push(
      interactionEvent('interactions.message.updated', {
        ...messageAudienceOf(interaction, false),
        ephemeral_user_id: context.current?.ephemeralUserId ?? null,
        message: { ...write.message },
      }),
    );
  } else if (write.kind === 'create') {
    events.push(
      interactionEvent('interactions.message.created', {
        ...messageAudienceOf(interaction, write.ephemeral),
        message: { ...write.message },
      }),
    );
  }
  if (callback.type === CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT) {
    events.push(
      interactionEvent('interactions.autocomplete.answered', {
        ...interactionAudienceOf(interaction),
        choices: callback.choices.map((choice) => ({ ...choice })),
      }),
    );
  }
  if (callback.type === CallbackType.MODAL) {
    events.push(
      interactionEvent('interactions.modal.created', {
        ...interactionAudienceOf(interaction),
        ...callback.modal,
        application: applicationOf(interaction.applicationId, context.botUser),
      }),
    );
  }
  // Callbacks 6 and 7 answer on the component's message: it is the response (`@original`).
  const onComponentMessage =
    callback.type === CallbackType.DEFERRED_UPDATE_MESSAGE || callback.type === CallbackType.UPDATE_MESSAGE;
  return {
    responseType: callback.type,
    response: storedResponse(callback),
    originalMessageId: onComponentMessage
      ? interaction.messageId
      : write.kind === 'create'
        ? write.message.id
        : null,
    activityInstanceId: made.activityInstanceId ?? null,
    write,
    events,
    made,
  };
}

/**
 * Why an initial response found its interaction no longer pending within its deadline, from
 * its state as the winner left it: 400 / 40060 when it has a response already, else 404 /
 * 10062 (it failed, its deadline passed, or it is gone).
 */
export function refuseAcknowledgement(state: string | undefined): never {
  if (state === 'acknowledged') throw new InteractionAlreadyAcknowledgedError();
  throw new UnknownInteractionError();
}

// The message a callback writes: 4 and 5 a new one (its id first, then its files'), 7 the
// component's message edited.
function messageWriteOf(
  interaction: AcknowledgedInteraction,
  callback: ValidCallback,
  context: AcknowledgementContext,
): ResponseMessageWrite {
  switch (callback.type) {
    case CallbackType.UPDATE_MESSAGE: {
      if (!context.current || interaction.messageId === null) throw new UnknownMessageError();
      return {
        kind: 'update',
        message: applyMessageEdit(context.current.body, callback.edit, context.now, { basePath: ['data'] }),
      };
    }
    case CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
    case CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: {
      const source = readMessageSource(interaction.payload, context.botUser ?? {});
      const id = context.nextId();
      const createdAt = new Date(snowflakeTimestamp(id));
      if (callback.type === CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE) {
        const message = renderLoadingMessage(source, id, createdAt, callback.ephemeral);
        return { kind: 'create', message, ephemeral: isEphemeral(message), attachments: [] };
      }
      const attachments = makeAttachments(callback.message.newAttachments, {
        nextId: context.nextId,
        channelId: interaction.channelId,
        baseUrl: context.baseUrl,
        signer: context.signer,
        ephemeral: hasFlag(callback.message.flags, MessageFlag.EPHEMERAL),
      });
      const message = renderMessage(source, {
        id,
        createdAt,
        ...callback.message,
        attachments: attachments.map((item) => item.attachment),
      });
      return { kind: 'create', message, ephemeral: isEphemeral(message), attachments };
    }
    default:
      return { kind: 'none' };
  }
}

/** Whether only the invoking user (and the bot) sees a message: its EPHEMERAL flag. */
function isEphemeral(message: InteractionMessage): boolean {
  return hasFlag(message.flags, MessageFlag.EPHEMERAL);
}

/** The initial response as kept on the interaction: `{type, data}` as validated (the wait outcome shows it). */
export function storedResponse(callback: ValidCallback): JsonObject {
  switch (callback.type) {
    case CallbackType.CHANNEL_MESSAGE_WITH_SOURCE: {
      // The files are the message's attachments; their blobs are no part of the response.
      const { newAttachments, ...data } = callback.message;
      return {
        type: callback.type,
        data: {
          ...data,
          ...(newAttachments.length > 0
            ? { attachments: newAttachments.map(({ filename }) => ({ filename })) }
            : {}),
        },
      };
    }
    case CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
      return { type: callback.type, data: { flags: callback.ephemeral ? MessageFlag.EPHEMERAL : 0 } };
    case CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT:
      return { type: callback.type, data: { choices: callback.choices } };
    case CallbackType.UPDATE_MESSAGE:
      return { type: callback.type, data: { ...callback.edit } };
    case CallbackType.MODAL:
      return { type: callback.type, data: { ...callback.modal } };
    default:
      return { type: callback.type };
  }
}

/**
 * The application as the user's client shows it over a modal: its id, and the bot's name
 * and avatar when the responder had them (the application object itself is oauth's).
 */
export function applicationOf(applicationId: string, botUser: JsonObject | undefined): JsonObject {
  return {
    id: applicationId,
    ...(typeof botUser?.username === 'string' ? { name: botUser.username } : {}),
    ...(botUser?.avatar !== undefined ? { icon: botUser.avatar } : {}),
    ...(typeof botUser?.id === 'string' ? { bot_id: botUser.id } : {}),
  };
}
