import { isJsonObject, type JsonObject } from '@acs/validation';
import { CommandType, InteractionType, MessageType, OptionType } from '../interaction-enums';

/**
 * What every message of one interaction says about where it comes from: read once from
 * the stored interaction object (A1) and the application's bot user.
 */
export interface MessageSource {
  interactionId: string;
  /** 2 APPLICATION_COMMAND (autocomplete interactions post no message). */
  interactionType: number;
  applicationId: string;
  channelId: string;
  /** The application's bot user as others see it: every message's `author`. */
  botUser: JsonObject;
  /** The invoking user (`member.user` in a guild, `user` elsewhere). */
  user: JsonObject;
  authorizingIntegrationOwners: JsonObject;
  /** The command's name with its subcommand group and subcommand, e.g. "tag edit". */
  commandName: string;
  commandType: number;
  /** USER commands: the target user; MESSAGE commands: the target message id. */
  targetUser?: JsonObject;
  targetMessageId?: string;
  /** Component interactions: the message whose component was used. */
  interactedMessageId?: string;
}

/**
 * The message source of a stored interaction object (the payload the app received, token
 * removed) and the bot user. Fields the object lacks read as empty, so that a message can
 * always be rendered.
 */
export function readMessageSource(interaction: JsonObject, botUser: JsonObject): MessageSource {
  const data = isJsonObject(interaction.data) ? interaction.data : {};
  // A component's or modal's interaction names no command: its messages name the one that
  // made the component's message (its interaction_metadata).
  const origin = isJsonObject(interaction.message) ? interaction.message.interaction_metadata : undefined;
  const named =
    typeof data.name === 'string' || !isJsonObject(origin)
      ? data
      : { name: origin.name, type: origin.command_type };
  const member = isJsonObject(interaction.member) ? interaction.member : undefined;
  const user =
    (member && isJsonObject(member.user) ? member.user : undefined) ??
    (isJsonObject(interaction.user) ? interaction.user : {});
  const commandType = typeof named.type === 'number' ? named.type : CommandType.CHAT_INPUT;
  const source: MessageSource = {
    interactionId: String(interaction.id),
    interactionType:
      typeof interaction.type === 'number' ? interaction.type : InteractionType.APPLICATION_COMMAND,
    applicationId: String(interaction.application_id),
    channelId: String(interaction.channel_id ?? ''),
    botUser,
    user,
    authorizingIntegrationOwners: isJsonObject(interaction.authorizing_integration_owners)
      ? interaction.authorizing_integration_owners
      : {},
    commandName: fullCommandName(named),
    commandType,
  };
  if (interaction.type === InteractionType.MESSAGE_COMPONENT && isJsonObject(interaction.message)) {
    source.interactedMessageId = String(interaction.message.id);
  }
  const targetId = typeof data.target_id === 'string' ? data.target_id : undefined;
  if (targetId !== undefined && commandType === CommandType.USER) {
    const resolved = isJsonObject(data.resolved) ? data.resolved : {};
    const users = isJsonObject(resolved.users) ? resolved.users : {};
    const target = users[targetId];
    if (isJsonObject(target)) source.targetUser = target;
  } else if (targetId !== undefined && commandType === CommandType.MESSAGE) {
    source.targetMessageId = targetId;
  }
  return source;
}

/**
 * The message type of an interaction's messages: 23 CONTEXT_MENU_COMMAND for USER and
 * MESSAGE commands, 20 CHAT_INPUT_COMMAND otherwise (D:resources/message.mdx §Message Types).
 */
export function messageTypeOf(source: MessageSource): InteractionMessageType {
  return source.commandType === CommandType.USER || source.commandType === CommandType.MESSAGE
    ? MessageType.CONTEXT_MENU_COMMAND
    : MessageType.CHAT_INPUT_COMMAND;
}

/** The message types of interaction responses. */
export type InteractionMessageType = (typeof MessageType)[keyof typeof MessageType];

// "name group sub": a message names the command as the user typed it (D §Message Interaction Object).
function fullCommandName(data: JsonObject): string {
  const parts = [typeof data.name === 'string' ? data.name : ''];
  let options = data.options;
  for (;;) {
    const first: unknown = Array.isArray(options) ? options[0] : undefined;
    if (
      !isJsonObject(first) ||
      (first.type !== OptionType.SUB_COMMAND && first.type !== OptionType.SUB_COMMAND_GROUP)
    )
      break;
    parts.push(String(first.name));
    options = first.options;
  }
  return parts.join(' ');
}
