// Numeric enums of the wire format, as `const` objects so values stay plain numbers.

/** Application command types (D:interactions/application-commands.mdx). */
export const ApplicationCommandType = {
  CHAT_INPUT: 1,
  USER: 2,
  MESSAGE: 3,
  PRIMARY_ENTRY_POINT: 4,
} as const;
export type ApplicationCommandType = (typeof ApplicationCommandType)[keyof typeof ApplicationCommandType];

/** Option types; 1 and 2 structure the command, 3-11 carry values. */
export const ApplicationCommandOptionType = {
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
export type ApplicationCommandOptionType =
  (typeof ApplicationCommandOptionType)[keyof typeof ApplicationCommandOptionType];

/** Channel types accepted in `channel_types` (facts §6; 16 = GUILD_MEDIA, absent from the OAS). */
export const CHANNEL_TYPES = [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16] as const;

/** Interaction context types: GUILD, BOT_DM, PRIVATE_CHANNEL. */
export const InteractionContextType = { GUILD: 0, BOT_DM: 1, PRIVATE_CHANNEL: 2 } as const;
export type InteractionContextType = (typeof InteractionContextType)[keyof typeof InteractionContextType];

/** Application integration (installation) types. */
export const ApplicationIntegrationType = { GUILD_INSTALL: 0, USER_INSTALL: 1 } as const;
export type ApplicationIntegrationType =
  (typeof ApplicationIntegrationType)[keyof typeof ApplicationIntegrationType];

/** Who handles a PRIMARY_ENTRY_POINT invocation. */
export const EntryPointCommandHandlerType = { APP_HANDLER: 1, DISCORD_LAUNCH_ACTIVITY: 2 } as const;
export type EntryPointCommandHandlerType =
  (typeof EntryPointCommandHandlerType)[keyof typeof EntryPointCommandHandlerType];

/** Whether an option type is SUB_COMMAND or SUB_COMMAND_GROUP. */
export function isStructuralOptionType(type: number): boolean {
  return (
    type === ApplicationCommandOptionType.SUB_COMMAND ||
    type === ApplicationCommandOptionType.SUB_COMMAND_GROUP
  );
}
