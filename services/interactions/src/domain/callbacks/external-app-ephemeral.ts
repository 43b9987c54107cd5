import { isJsonObject, type JsonObject } from '@acs/discord-errors';
import { Permission } from '../interaction-enums';
import { hasPermission } from '../invocation/has-permission';
import { MessageFlag } from '../messages/message-flags';
import type { MessageInput } from '../messages/validate-message';
import { CallbackType } from './callback-types';
import type { ValidCallback } from './validate-callback';

/** What decides whether an interaction's messages must be ephemeral. */
export interface EphemeralFacts {
  /** Null in a DM or group DM. */
  guildId: string | null;
  /** Only a user install authorizes the interaction: the app is not installed in the guild. */
  userInstallOnly: boolean;
  /** The interaction object the app received: `member.permissions` are the invoker's in the channel. */
  payload: JsonObject;
}

/**
 * Whether the app's messages for this interaction are ephemeral whatever it asks: in a
 * guild where the app is not installed (only the invoker's user install authorizes it) and
 * the invoker lacks USE_EXTERNAL_APPS in the channel (D:topics/permissions.mdx: "when
 * disabled, users will still be allowed to use their apps but the responses will be
 * ephemeral. This only applies to apps not also installed to the server").
 */
export function mustBeEphemeral(facts: EphemeralFacts): boolean {
  if (facts.guildId === null || !facts.userInstallOnly) return false;
  const member = facts.payload.member;
  const permissions = isJsonObject(member) ? member.permissions : undefined;
  return !hasPermission(typeof permissions === 'string' ? permissions : '', Permission.USE_EXTERNAL_APPS);
}

/** A message made ephemeral when `mustBeEphemeral`; unchanged otherwise. */
export function withForcedEphemeral(facts: EphemeralFacts, message: MessageInput): MessageInput {
  return mustBeEphemeral(facts) ? { ...message, flags: message.flags | MessageFlag.EPHEMERAL } : message;
}

/** An initial response whose message (callback 4) or loading message (callback 5) is forced ephemeral when it must be. */
export function withForcedEphemeralCallback(facts: EphemeralFacts, callback: ValidCallback): ValidCallback {
  if (!mustBeEphemeral(facts)) return callback;
  if (callback.type === CallbackType.CHANNEL_MESSAGE_WITH_SOURCE) {
    return {
      ...callback,
      message: { ...callback.message, flags: callback.message.flags | MessageFlag.EPHEMERAL },
    };
  }
  if (callback.type === CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE)
    return { ...callback, ephemeral: true };
  return callback;
}
