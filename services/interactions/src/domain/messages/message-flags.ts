// Message flags (D:resources/message.mdx §Message Object, Message Flags).

/** The message flags this service reads or writes. */
export const MessageFlag = {
  SUPPRESS_EMBEDS: 1 << 2,
  EPHEMERAL: 1 << 6,
  /** A deferred response (callback 5) that has no content yet: the client shows "is thinking…". */
  LOADING: 1 << 7,
  SUPPRESS_NOTIFICATIONS: 1 << 12,
  IS_VOICE_MESSAGE: 1 << 13,
  IS_COMPONENTS_V2: 1 << 15,
} as const;

/** The flags an app may set when it posts a message through an interaction (A3 "Message callback data"). */
export const SETTABLE_MESSAGE_FLAGS =
  MessageFlag.SUPPRESS_EMBEDS |
  MessageFlag.EPHEMERAL |
  MessageFlag.SUPPRESS_NOTIFICATIONS |
  MessageFlag.IS_VOICE_MESSAGE |
  MessageFlag.IS_COMPONENTS_V2;

/**
 * The flags an edit changes: SUPPRESS_EMBEDS both ways, IS_COMPONENTS_V2 only on (a
 * components-v2 message cannot go back). Other settable flags sent with an edit are
 * accepted and left as they were: a message does not become ephemeral after the fact.
 */
export const EDITABLE_MESSAGE_FLAGS = MessageFlag.SUPPRESS_EMBEDS | MessageFlag.IS_COMPONENTS_V2;

/** Whether `flags` has every bit of `flag`. */
export function hasFlag(flags: number, flag: number): boolean {
  return (flags & flag) === flag;
}
