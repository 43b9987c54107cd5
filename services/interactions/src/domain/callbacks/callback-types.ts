// Interaction callback types and which interaction may use which (A3; D:interactions/
// receiving-and-responding.mdx §Interaction Callback Type).
import { InteractionType } from '../interaction-enums';

/** Every callback type of the public API. */
export const CallbackType = {
  PONG: 1,
  CHANNEL_MESSAGE_WITH_SOURCE: 4,
  DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5,
  DEFERRED_UPDATE_MESSAGE: 6,
  UPDATE_MESSAGE: 7,
  APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: 8,
  MODAL: 9,
  PREMIUM_REQUIRED: 10,
  LAUNCH_ACTIVITY: 12,
} as const;
export type CallbackType = (typeof CallbackType)[keyof typeof CallbackType];

/** The values a `type` may have at all (BASE_TYPE_CHOICES lists them). */
export const CALLBACK_TYPES: readonly number[] = Object.values(CallbackType);

/** The callback names, for messages that say which type was refused. */
export const CALLBACK_TYPE_NAMES: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(CallbackType).map(([name, value]) => [value, name]),
);

/**
 * The callbacks each interaction type takes here (A3). PREMIUM_REQUIRED (10) is deprecated
 * for premium buttons (style 6) and refused. A modal submit takes 6 and 7 only when the
 * modal was opened from a component (MODAL_SUBMIT_FROM_COMPONENT_CALLBACKS).
 */
export const ALLOWED_CALLBACKS: Readonly<Record<number, readonly number[]>> = {
  [InteractionType.APPLICATION_COMMAND]: [
    CallbackType.CHANNEL_MESSAGE_WITH_SOURCE,
    CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    CallbackType.MODAL,
    CallbackType.LAUNCH_ACTIVITY,
  ],
  [InteractionType.MESSAGE_COMPONENT]: [
    CallbackType.CHANNEL_MESSAGE_WITH_SOURCE,
    CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    CallbackType.DEFERRED_UPDATE_MESSAGE,
    CallbackType.UPDATE_MESSAGE,
    CallbackType.MODAL,
    CallbackType.LAUNCH_ACTIVITY,
  ],
  [InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE]: [CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT],
  [InteractionType.MODAL_SUBMIT]: [
    CallbackType.CHANNEL_MESSAGE_WITH_SOURCE,
    CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    CallbackType.LAUNCH_ACTIVITY,
  ],
};

/** What a modal submit also takes when its modal came from a component (A3, UD). */
export const MODAL_SUBMIT_FROM_COMPONENT_CALLBACKS: readonly number[] = [
  CallbackType.DEFERRED_UPDATE_MESSAGE,
  CallbackType.UPDATE_MESSAGE,
];

/** The interaction type names, for messages. */
export const INTERACTION_TYPE_NAMES: Readonly<Record<number, string>> = {
  1: 'PING',
  2: 'APPLICATION_COMMAND',
  3: 'MESSAGE_COMPONENT',
  4: 'APPLICATION_COMMAND_AUTOCOMPLETE',
  5: 'MODAL_SUBMIT',
};

/** Application flag EMBEDDED (1 << 17): the app has an Activity, and only then may it answer LAUNCH_ACTIVITY. */
export const EMBEDDED_APPLICATION_FLAG = 1 << 17;
