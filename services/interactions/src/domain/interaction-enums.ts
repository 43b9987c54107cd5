// Numeric enums of the wire format (D:interactions/receiving-and-responding.mdx,
// D:interactions/application-commands.mdx), as `const` objects so values stay plain numbers.

import { PERMISSION_FLAGS } from '@acs/validation';

/** Interaction types; users invoke 2 (a command) and 4 (its autocomplete). */
export const InteractionType = {
  PING: 1,
  APPLICATION_COMMAND: 2,
  MESSAGE_COMPONENT: 3,
  APPLICATION_COMMAND_AUTOCOMPLETE: 4,
  MODAL_SUBMIT: 5,
} as const;

/** The interaction types a user may start: a command, a component, its autocomplete, a modal submit. */
export const INVOCABLE_INTERACTION_TYPES = [
  InteractionType.APPLICATION_COMMAND,
  InteractionType.MESSAGE_COMPONENT,
  InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
  InteractionType.MODAL_SUBMIT,
] as const;

/** Application command types. */
export const CommandType = { CHAT_INPUT: 1, USER: 2, MESSAGE: 3, PRIMARY_ENTRY_POINT: 4 } as const;

/** Option types; 1 and 2 structure the command, 3-11 carry values. */
export const OptionType = {
  SUB_COMMAND: 1,
  SUB_COMMAND_GROUP: 2,
  STRING: 3,
  INTEGER: 4,
  BOOLEAN: 5,
  USER: 6,
  CHANNEL: 7,
  ROLE: 8,
  MENTIONABLE: 9,
  NUMBER: 10,
  ATTACHMENT: 11,
} as const;

/** Interaction context types: where an interaction happens. */
export const InteractionContext = { GUILD: 0, BOT_DM: 1, PRIVATE_CHANNEL: 2 } as const;

/** Application integration (installation) types, keys of `authorizing_integration_owners` as strings. */
export const IntegrationType = { GUILD_INSTALL: 0, USER_INSTALL: 1 } as const;

/** Who handles a PRIMARY_ENTRY_POINT invocation. */
export const EntryPointHandler = { APP_HANDLER: 1, DISCORD_LAUNCH_ACTIVITY: 2 } as const;

/** Channel types that are direct messages (D:resources/channel.mdx): DM and GROUP_DM. */
export const ChannelType = { DM: 1, GROUP_DM: 3 } as const;

/** INTERACTION_FAILURE reasons (UD:gateway/gateway-events.mdx). */
export const FailureReason = { UNKNOWN: 1, TIMEOUT: 2 } as const;

/** Message types of interaction responses: CHAT_INPUT_COMMAND, CONTEXT_MENU_COMMAND. */
export const MessageType = { CHAT_INPUT_COMMAND: 20, CONTEXT_MENU_COMMAND: 23 } as const;

/** Permission bits an invocation checks: the shared flags (D:topics/permissions.mdx). */
export const Permission = PERMISSION_FLAGS;
