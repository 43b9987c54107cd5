import { CallbackType } from '../callbacks/callback-types';
import {
  interactionAudienceOf,
  interactionEvent,
  messageAudienceOf,
  type InteractionEvent,
  type InteractionParties,
  type MessageParties,
} from '../interaction-events';
import type { JsonRecord } from './invocation-facts';

/** An entry point launched by Discord (handler 2): recorded acknowledged, with its launch message. */
export interface Launch {
  activityInstanceId: string;
  messageId: string;
  /** The launch message as the API answers it. */
  message: JsonRecord;
}

/** An invocation to record, as its events read it. */
export interface RecordedInteraction extends InteractionParties, MessageParties {
  /** 2 APPLICATION_COMMAND, 3 MESSAGE_COMPONENT, 4 AUTOCOMPLETE, 5 MODAL_SUBMIT. */
  type: number;
  /** The full object, token included, for the bot's INTERACTION_CREATE (gateway delivery only). */
  botPayload: JsonRecord | null;
}

/**
 * What recording an invocation writes, decided before anything is: the interaction's state
 * and response columns, the launch message, the events in order, and the outcomes announced.
 */
export interface RecordingPlan {
  /** Pending until the app answers; a launch is acknowledged at once. */
  state: 'pending' | 'acknowledged';
  responseType: number | null;
  /** The initial response kept on the interaction (a launch: `{type: 12}`). */
  response: JsonRecord | null;
  originalMessageId: string | null;
  activityInstanceId: string | null;
  /** A launch's message, the interaction's original (`@original`). */
  launchMessage: { id: string; body: JsonRecord } | null;
  /** INTERACTION_CREATE; for a launch then INTERACTION_SUCCESS and the message. */
  events: InteractionEvent[];
  /** The interactions whose outcome the recording settles (`wait` hears of them): a launch's. */
  outcomeIds: string[];
}

/**
 * Plans recording `interaction`: pending, with its `interaction.created`; with `launch`,
 * acknowledged at once (LAUNCH_ACTIVITY), with its launch message and, in the order of a
 * callback's events, the user's INTERACTION_SUCCESS then the message (seen by the channel).
 */
export function planRecording(interaction: RecordedInteraction, launch?: Launch): RecordingPlan {
  const created = interactionEvent('interactions.interaction.created', {
    ...interactionAudienceOf(interaction),
    type: interaction.type,
    bot_payload: interaction.botPayload,
  });
  if (!launch) {
    return {
      state: 'pending',
      responseType: null,
      response: null,
      originalMessageId: null,
      activityInstanceId: null,
      launchMessage: null,
      events: [created],
      outcomeIds: [],
    };
  }
  return {
    state: 'acknowledged',
    responseType: CallbackType.LAUNCH_ACTIVITY,
    response: { type: CallbackType.LAUNCH_ACTIVITY },
    originalMessageId: launch.messageId,
    activityInstanceId: launch.activityInstanceId,
    launchMessage: { id: launch.messageId, body: launch.message },
    events: [
      created,
      interactionEvent('interactions.interaction.succeeded', interactionAudienceOf(interaction)),
      interactionEvent('interactions.message.created', {
        ...messageAudienceOf(interaction, false),
        message: launch.message,
      }),
    ],
    outcomeIds: [interaction.id],
  };
}
