import type { z } from 'zod';
import { commandDeleted, commandRenamed, commandScopeChanged } from './catalog/command-registry-events';
import {
  applicationAuthorized,
  applicationBotTokenReset,
  applicationCredentialsChanged,
  applicationDeauthorized,
  applicationUpdated,
  userMerged,
  userUnmerged,
  userUpdated,
  userDeleted,
  userBanned,
} from './catalog/oauth-events';
import {
  entitlementCreated,
  entitlementDeleted,
  entitlementUpdated,
  subscriptionCreated,
  subscriptionUpdated,
} from './catalog/monetization-events';
import {
  autocompleteAnswered,
  channelPinsUpdated,
  interactionCreated,
  interactionFailed,
  interactionSucceeded,
  messageCreated,
  messageDeleted,
  messageUpdated,
  modalCreated,
  channelMessageCreated,
  channelMessageDeleted,
  channelMessagesBulkDeleted,
  reactionAdded,
  reactionRemoved,
  reactionsRemovedAll,
  reactionsRemovedEmoji,
  typingStarted,
  channelMessageUpdated,
} from './catalog/interactions-events';
import {
  lobbyCreated,
  lobbyDeleted,
  lobbyMemberChanged,
  lobbyMessageCreated,
  lobbyMessageUpdated,
  lobbyUpdated,
  mergeCompleted,
} from './catalog/lobby-events';
import {
  applicationCommandPermissionsUpdated,
  voiceChannelStartTimeUpdated,
  voiceChannelStatusUpdated,
  voiceStateUpdated,
  memberAdded,
  memberRemoved,
  memberUpdated,
  roleCreated,
  roleDeleted,
  roleUpdated,
} from './catalog/permissions-events';
import { channelChanged } from './catalog/channel-events';
import { autoModActionExecuted, autoModRuleChanged } from './catalog/automod-events';

/**
 * Every event of ACS: its name (`<service>.<type>`, the subject after the deployment's
 * prefix) and the schema of its `data`. Producers build events from it (`createEvent`),
 * consumers validate what they receive against it (`startEventConsumer`): an event that
 * is not here is not published.
 */
export const EVENT_CATALOG = {
  'oauth.application.authorized': applicationAuthorized,
  'oauth.application.deauthorized': applicationDeauthorized,
  'oauth.application.bot_token_reset': applicationBotTokenReset,
  'oauth.application.credentials_changed': applicationCredentialsChanged,
  'oauth.application.updated': applicationUpdated,
  'oauth.user.merged': userMerged,
  'oauth.user.unmerged': userUnmerged,
  'oauth.user.updated': userUpdated,
  'oauth.user.deleted': userDeleted,
  'oauth.user.banned': userBanned,
  'oauth.entitlement.created': entitlementCreated,
  'oauth.entitlement.updated': entitlementUpdated,
  'oauth.entitlement.deleted': entitlementDeleted,
  'oauth.subscription.created': subscriptionCreated,
  'oauth.subscription.updated': subscriptionUpdated,
  'command-registry.command.deleted': commandDeleted,
  'command-registry.command.renamed': commandRenamed,
  'command-registry.scope.changed': commandScopeChanged,
  'permissions.application_command_permissions.updated': applicationCommandPermissionsUpdated,
  'permissions.voice_state.updated': voiceStateUpdated,
  'permissions.voice_channel.status_updated': voiceChannelStatusUpdated,
  'permissions.voice_channel.start_time_updated': voiceChannelStartTimeUpdated,
  'permissions.member.added': memberAdded,
  'permissions.member.updated': memberUpdated,
  'permissions.member.removed': memberRemoved,
  'permissions.role.created': roleCreated,
  'permissions.role.updated': roleUpdated,
  'permissions.role.deleted': roleDeleted,
  'permissions.channel.created': channelChanged,
  'permissions.channel.updated': channelChanged,
  'permissions.channel.deleted': channelChanged,
  'interactions.interaction.created': interactionCreated,
  'interactions.interaction.succeeded': interactionSucceeded,
  'interactions.interaction.failed': interactionFailed,
  'interactions.autocomplete.answered': autocompleteAnswered,
  'interactions.modal.created': modalCreated,
  'interactions.message.created': messageCreated,
  'interactions.message.updated': messageUpdated,
  'interactions.message.deleted': messageDeleted,
  'interactions.channel.pins_updated': channelPinsUpdated,
  'interactions.channel_message.created': channelMessageCreated,
  'interactions.channel_message.updated': channelMessageUpdated,
  'interactions.channel_message.deleted': channelMessageDeleted,
  'interactions.channel_message.bulk_deleted': channelMessagesBulkDeleted,
  'interactions.reaction.added': reactionAdded,
  'interactions.reaction.removed': reactionRemoved,
  'interactions.reaction.removed_all': reactionsRemovedAll,
  'interactions.reaction.removed_emoji': reactionsRemovedEmoji,
  'interactions.typing.started': typingStarted,
  'interactions.automod_rule.created': autoModRuleChanged,
  'interactions.automod_rule.updated': autoModRuleChanged,
  'interactions.automod_rule.deleted': autoModRuleChanged,
  'interactions.automod.action_executed': autoModActionExecuted,
  'lobby.lobby.created': lobbyCreated,
  'lobby.lobby.updated': lobbyUpdated,
  'lobby.lobby.deleted': lobbyDeleted,
  'lobby.member.changed': lobbyMemberChanged,
  'lobby.message.created': lobbyMessageCreated,
  'lobby.message.updated': lobbyMessageUpdated,
  'lobby.merge.completed': mergeCompleted,
} as const satisfies Record<string, z.ZodType>;

/** The name of an event: `oauth.application.authorized`. */
export type EventName = keyof typeof EVENT_CATALOG;

/** Each event's `data`, by name (the map publish and consume are typed by). */
export type EventPayloads = { [N in EventName]: z.output<(typeof EVENT_CATALOG)[N]> };

/** The `data` of the event `N`. */
export type EventPayload<N extends EventName> = EventPayloads[N];

/** The names of the events a service publishes: `EventNameOf<'oauth'>`. */
export type EventNameOf<Service extends string> = Extract<EventName, `${Service}.${string}`>;

/** Whether `name` is an event of the catalog. */
export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(EVENT_CATALOG, name);
}

/** The service that publishes an event: `oauth` for `oauth.application.authorized`. */
export function serviceOf(name: EventName): string {
  return name.slice(0, name.indexOf('.'));
}

/** The envelope's `type` of an event: `application.authorized` for `oauth.application.authorized`. */
export function typeOf(name: EventName): string {
  return name.slice(name.indexOf('.') + 1);
}
