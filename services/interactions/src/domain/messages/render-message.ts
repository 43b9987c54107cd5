import type { JsonObject } from '@acs/validation';
import type { MessageAttachment } from './attachments';
import { formatTimestamp } from './format-timestamp';
import { MessageFlag } from './message-flags';
import { messageTypeOf, type InteractionMessageType, type MessageSource } from './message-source';
import type { Embed } from './read-embeds';

/** The fields every message object has (OAS `MessageResponse`), whoever posted it. */
export interface MessageCore {
  type: number;
  content: string;
  mentions: JsonObject[];
  mention_roles: string[];
  attachments: MessageAttachment[];
  embeds: Embed[];
  timestamp: string;
  edited_timestamp: string | null;
  flags: number;
  components: JsonObject[];
  id: string;
  channel_id: string;
  author: JsonObject;
  pinned: boolean;
  mention_everyone: boolean;
  tts: boolean;
}

/**
 * A message an interaction produced, as the API answers it (D:resources/message.mdx
 * §Message Object; OAS `MessageResponse`): posted by the application's webhook in the
 * bot's name, tied to the interaction by `interaction_metadata`.
 */
export interface InteractionMessage extends MessageCore {
  type: InteractionMessageType;
  application_id: string;
  /** Deprecated by Discord for `interaction_metadata`, still sent and read by libraries. */
  interaction: { id: string; type: number; name: string; user: JsonObject };
  webhook_id: string;
  interaction_metadata: InteractionMetadata;
}

/** D §Message Interaction Metadata Object, for an application command. */
export interface InteractionMetadata {
  id: string;
  type: number;
  user: JsonObject;
  authorizing_integration_owners: JsonObject;
  name: string;
  command_type: number;
  /** Follow-ups only: the id of the interaction's original response. */
  original_response_message_id?: string;
  target_user?: JsonObject;
  target_message_id?: string;
  /** Component interactions: the message whose component was used. */
  interacted_message_id?: string;
}

/** What one message says, apart from where it comes from. */
export interface MessageBody {
  id: string;
  createdAt: Date;
  content: string;
  embeds: Embed[];
  tts: boolean;
  flags: number;
  /** The validated components (readMessageComponents); none when absent. */
  components?: JsonObject[];
  /** Its files' attachment objects (none by default). */
  attachments?: MessageAttachment[];
  /** Set on follow-ups: the interaction's original response. */
  originalResponseMessageId?: string;
}

/** Renders a new message of the interaction `source`. */
export function renderMessage(source: MessageSource, body: MessageBody): InteractionMessage {
  const metadata: InteractionMetadata = {
    id: source.interactionId,
    type: source.interactionType,
    user: source.user,
    authorizing_integration_owners: source.authorizingIntegrationOwners,
    name: source.commandName,
    command_type: source.commandType,
    ...(body.originalResponseMessageId !== undefined
      ? { original_response_message_id: body.originalResponseMessageId }
      : {}),
    ...(source.targetUser !== undefined ? { target_user: source.targetUser } : {}),
    ...(source.targetMessageId !== undefined ? { target_message_id: source.targetMessageId } : {}),
    ...(source.interactedMessageId !== undefined
      ? { interacted_message_id: source.interactedMessageId }
      : {}),
  };
  return {
    type: messageTypeOf(source),
    content: body.content,
    mentions: [],
    mention_roles: [],
    attachments: body.attachments ?? [],
    embeds: body.embeds,
    timestamp: formatTimestamp(body.createdAt),
    edited_timestamp: null,
    flags: body.flags,
    components: body.components ?? [],
    id: body.id,
    channel_id: source.channelId,
    author: source.botUser,
    pinned: false,
    mention_everyone: false,
    tts: body.tts,
    application_id: source.applicationId,
    interaction: {
      id: source.interactionId,
      type: source.interactionType,
      name: source.commandName,
      user: source.user,
    },
    webhook_id: source.applicationId,
    interaction_metadata: metadata,
  };
}

/**
 * The loading message of a deferred response (callback 5): no content, flag LOADING, and
 * EPHEMERAL when the defer asked for it; its first edit gives it content.
 */
export function renderLoadingMessage(
  source: MessageSource,
  id: string,
  createdAt: Date,
  ephemeral: boolean,
): InteractionMessage {
  const flags = MessageFlag.LOADING | (ephemeral ? MessageFlag.EPHEMERAL : 0);
  return renderMessage(source, { id, createdAt, content: '', embeds: [], tts: false, flags });
}
