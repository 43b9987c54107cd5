import { MessageFlag, hasFlag } from '../messages/message-flags';
import type { InteractionMessage } from '../messages/render-message';
import { CallbackType } from './callback-types';

/** The interaction callback response (`?with_response=true`; A4, OAS `InteractionCallbackResponse`). */
export interface CallbackResponse {
  interaction: {
    id: string;
    type: number;
    response_message_id?: string;
    response_message_loading?: boolean;
    response_message_ephemeral?: boolean;
    activity_instance_id?: string;
  };
  resource?: {
    type: number;
    message?: InteractionMessage;
    activity_instance?: { id: string };
  };
}

/** What the response object is built from: the interaction and what its callback made. */
export interface CallbackOutcome {
  interactionId: string;
  interactionType: number;
  callbackType: number;
  /** Callbacks 4 and 5: the response message (5: the loading message); 7: the message updated. */
  message?: InteractionMessage;
  /** Callback 12: the launched Activity instance. */
  activityInstanceId?: string;
}

/**
 * Renders the callback response: the `response_message_*` fields whenever a message was
 * made, the message itself only for CHANNEL_MESSAGE_WITH_SOURCE and UPDATE_MESSAGE (A4:
 * "only for types 4 and 7"), the Activity instance only for LAUNCH_ACTIVITY. Other callbacks (a defer, an
 * autocomplete result) have no `resource`: Discord's OpenAPI allows only the message and
 * Activity shapes there.
 */
export function renderCallbackResponse(outcome: CallbackOutcome): CallbackResponse {
  const { message } = outcome;
  const response: CallbackResponse = {
    interaction: {
      id: outcome.interactionId,
      type: outcome.interactionType,
      ...(message
        ? {
            response_message_id: message.id,
            response_message_loading: hasFlag(message.flags, MessageFlag.LOADING),
            response_message_ephemeral: hasFlag(message.flags, MessageFlag.EPHEMERAL),
          }
        : {}),
      ...(outcome.activityInstanceId !== undefined
        ? { activity_instance_id: outcome.activityInstanceId }
        : {}),
    },
  };
  if (
    (outcome.callbackType === CallbackType.CHANNEL_MESSAGE_WITH_SOURCE ||
      outcome.callbackType === CallbackType.UPDATE_MESSAGE) &&
    message
  ) {
    response.resource = { type: outcome.callbackType, message };
  } else if (
    outcome.callbackType === CallbackType.LAUNCH_ACTIVITY &&
    outcome.activityInstanceId !== undefined
  ) {
    response.resource = { type: outcome.callbackType, activity_instance: { id: outcome.activityInstanceId } };
  }
  return response;
}
