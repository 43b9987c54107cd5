import type { EventName } from './event-catalog';

/** What the events table says of one event besides its `data`, which the schema gives. */
export interface EventDoc {
  /** The producing service, and the change that writes the event. */
  producer: string;
  /** Who consumes it, and what each turns it into. */
  consumers: string;
}

/**
 * The prose of every event of the catalog, for the events table of this package's README
 * (`renderEventsTable`). Typed by the catalog: an event added without its line here does
 * not compile, and a test fails when the README's table is not the one rendered from both.
 */
export const EVENT_DOCS: { readonly [N in EventName]: EventDoc } = {
  'oauth.application.authorized': {
    producer: 'oauth: a consent installs an application (guild or user install)',
    consumers:
      'dispatcher: APPLICATION_AUTHORIZED webhook event, GUILD_CREATE when the bot joined a guild; interactions: drops cached invocation facts',
  },
  'oauth.application.deauthorized': {
    producer: "oauth: a user's authorization ends, or the bot leaves a guild",
    consumers:
      'dispatcher: APPLICATION_DEAUTHORIZED webhook event, GUILD_DELETE; api-gateway: drops cached tokens; interactions: drops cached invocation facts',
  },
  'oauth.application.bot_token_reset': {
    producer: 'oauth: a bot token is reset',
    consumers: "dispatcher: the bot's sessions close with 4004; api-gateway: drops cached tokens",
  },
  'oauth.application.credentials_changed': {
    producer: 'oauth: flags, owner or public client changed, or tokens revoked without a deauthorization',
    consumers: 'api-gateway: drops cached tokens; interactions: drops cached invocation facts',
  },
  'oauth.application.updated': {
    producer:
      'oauth: an application is patched (PATCH /admin/applications/{id}), or the dispatcher disables its event webhooks',
    consumers: "interactions: drops the application's cached invocation facts (keys, endpoint, bot user)",
  },
  'oauth.user.merged': {
    producer: 'oauth: a code exchange merges a provisional account into a full account (Social SDK)',
    consumers:
      "lobby: the provisional account's lobby memberships move to the full account (then `lobby.merge.completed`); interactions: drops cached invocation facts",
  },
  'oauth.user.unmerged': {
    producer: 'oauth: an unmerge route or a ban gives a game identity a new provisional account (Social SDK)',
    consumers:
      "lobby: the full account's lobby memberships of the application are copied to the new account; interactions: drops cached invocation facts",
  },
  'oauth.user.updated': {
    producer: 'oauth: a provisional account is renamed (PATCH /users/@me/account), an admin updates a user',
    consumers:
      "dispatcher: USER_UPDATE (the user as others see them) to the user's sessions; interactions: drops cached invocation facts",
  },
  'oauth.user.deleted': {
    producer: 'oauth: a user is deleted (DELETE /admin/users/{id})',
    consumers:
      "dispatcher: the user's gateway sessions close with 4004; interactions: drops cached invocation facts; api-gateway: drops the user's cached tokens; lobby: the user leaves every lobby (LOBBY_MEMBER_REMOVE)",
  },
  'oauth.user.banned': {
    producer: 'oauth: a user is banned (POST /admin/users/{id}/ban)',
    consumers:
      "dispatcher: the user's gateway sessions close with 4004; interactions: drops cached invocation facts; api-gateway: drops the user's cached tokens",
  },
  'oauth.entitlement.created': {
    producer: 'oauth: a purchase, a test entitlement or a subscription grants an SKU',
    consumers:
      'dispatcher: ENTITLEMENT_CREATE to the bot and as a webhook event; interactions: drops cached invocation facts',
  },
  'oauth.entitlement.updated': {
    producer: 'oauth: an entitlement is consumed or ends',
    consumers: 'dispatcher: ENTITLEMENT_UPDATE to the bot; interactions: drops cached invocation facts',
  },
  'oauth.entitlement.deleted': {
    producer: 'oauth: an entitlement is refunded or a test entitlement deleted',
    consumers: 'dispatcher: ENTITLEMENT_DELETE to the bot; interactions: drops cached invocation facts',
  },
  'oauth.subscription.created': {
    producer: 'oauth: a user subscribes to a subscription SKU',
    consumers: 'dispatcher: SUBSCRIPTION_CREATE to the bot; interactions: drops cached invocation facts',
  },
  'oauth.subscription.updated': {
    producer: 'oauth: a subscription is cancelled, ended or its renewal SKUs change',
    consumers: 'dispatcher: SUBSCRIPTION_UPDATE to the bot; interactions: drops cached invocation facts',
  },
  'command-registry.command.deleted': {
    producer: 'command-registry: a command is deleted (alone or by a bulk overwrite)',
    consumers: "permissions: deletes the command's permissions",
  },
  'command-registry.command.renamed': {
    producer: 'command-registry: a command is renamed',
    consumers: 'permissions: deletes the permissions written before `version`',
  },
  'command-registry.scope.changed': {
    producer: "command-registry: a scope's commands are created, edited, renamed or deleted",
    consumers: "interactions (every replica): drops the application's cached invocable commands",
  },
  'permissions.application_command_permissions.updated': {
    producer: "permissions: a command's or the app's permissions in a guild are replaced",
    consumers: 'dispatcher: APPLICATION_COMMAND_PERMISSIONS_UPDATE',
  },
  'permissions.voice_state.updated': {
    producer: 'permissions: a user or bot joins, moves in or leaves a voice channel (op 4)',
    consumers: "dispatcher: VOICE_STATE_UPDATE to the guild's bots with GUILD_VOICE_STATES",
  },
  'permissions.voice_channel.status_updated': {
    producer: "permissions: a voice channel's status is set, or cleared when it empties",
    consumers: "dispatcher: VOICE_CHANNEL_STATUS_UPDATE to the guild's bots",
  },
  'permissions.voice_channel.start_time_updated': {
    producer: "permissions: a voice channel's session starts or ends",
    consumers: "dispatcher: VOICE_CHANNEL_START_TIME_UPDATE to the guild's bots",
  },
  'permissions.member.added': {
    producer: 'permissions: a user joined a guild (admin API, an install adding the bot)',
    consumers: 'dispatcher: GUILD_MEMBER_ADD',
  },
  'permissions.member.updated': {
    producer:
      "permissions: a member's roles, nick or timeout changed (admin API, Modify Guild Member, AutoMod's TIMEOUT, the bot's managed role)",
    consumers: 'dispatcher: GUILD_MEMBER_UPDATE, and channels flipping visibility for its bot',
  },
  'permissions.member.removed': {
    producer: 'permissions: a user left a guild (admin API, an uninstall)',
    consumers: 'dispatcher: GUILD_MEMBER_REMOVE',
  },
  'permissions.role.created': {
    producer: "permissions: a role was created (admin API, a bot's managed role)",
    consumers: 'dispatcher: GUILD_ROLE_CREATE',
  },
  'permissions.role.updated': {
    producer: "permissions: a role changed (admin API, an install's permissions, the app renamed)",
    consumers: 'dispatcher: GUILD_ROLE_UPDATE, and channels flipping visibility',
  },
  'permissions.role.deleted': {
    producer: "permissions: a bot's managed role was deleted (with its bot, or its permissions set to 0)",
    consumers: 'dispatcher: GUILD_ROLE_DELETE',
  },
  'permissions.channel.created': {
    producer: 'permissions: a channel or thread was created (admin API)',
    consumers: "dispatcher: CHANNEL_CREATE (THREAD_CREATE) to the guild's bots, obfuscated where asked",
  },
  'permissions.channel.updated': {
    producer: 'permissions: a channel was renamed or its overwrites changed',
    consumers: 'dispatcher: CHANNEL_UPDATE (THREAD_UPDATE), and channels flipping visibility',
  },
  'permissions.channel.deleted': {
    producer: 'permissions: a channel was deleted (its threads with it)',
    consumers: 'dispatcher: CHANNEL_DELETE (THREAD_DELETE)',
  },
  'interactions.interaction.created': {
    producer: 'interactions: a user invoked a command, its autocomplete, a component or a modal submit',
    consumers:
      "dispatcher: INTERACTION_CREATE `{id, nonce}` to the user's session; the full interaction to the bot's shard (`bot_payload`, when delivered over the gateway)",
  },
  'interactions.interaction.succeeded': {
    producer: 'interactions: the app acknowledged in time',
    consumers: 'dispatcher: INTERACTION_SUCCESS to the user',
  },
  'interactions.interaction.failed': {
    producer:
      "interactions: delivery failed (reason 1) or the deadline passed (2); `reason` says exactly why (the admin timeline's text)",
    consumers: 'dispatcher: INTERACTION_FAILURE `{id, nonce, reason_code, reason}` to the user',
  },
  'interactions.autocomplete.answered': {
    producer: 'interactions: callback type 8',
    consumers: 'dispatcher: APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE to the user',
  },
  'interactions.modal.created': {
    producer: 'interactions: callback type 9',
    consumers: 'dispatcher: INTERACTION_MODAL_CREATE to the user',
  },
  'interactions.message.created': {
    producer: 'interactions: a message was posted (a response, a follow-up, a linked lobby message)',
    consumers: 'dispatcher: MESSAGE_CREATE to the bot (intents) and the users who may view the channel',
  },
  'interactions.message.updated': {
    producer: 'interactions: a message was edited',
    consumers: 'dispatcher: MESSAGE_UPDATE, the same way',
  },
  'interactions.message.deleted': {
    producer: 'interactions: a message was deleted',
    consumers: 'dispatcher: MESSAGE_DELETE, the same way',
  },
  'interactions.channel.pins_updated': {
    producer: 'interactions: a message was pinned or unpinned',
    consumers: 'dispatcher: CHANNEL_PINS_UPDATE',
  },
  'interactions.channel_message.created': {
    producer: 'interactions: a bot or a user sent a message with `POST /channels/{id}/messages`',
    consumers:
      'dispatcher: MESSAGE_CREATE to the users who may view the channel and the guild’s bots that may (GUILD_MESSAGES; content blanked without MESSAGE_CONTENT unless the bot wrote it or is mentioned), in a DM to its recipients',
  },
  'interactions.channel_message.updated': {
    producer: 'interactions: a channel message was edited',
    consumers: 'dispatcher: MESSAGE_UPDATE, the same way',
  },
  'interactions.channel_message.deleted': {
    producer: 'interactions: a channel message was deleted',
    consumers: 'dispatcher: MESSAGE_DELETE, the same way',
  },
  'interactions.channel_message.bulk_deleted': {
    producer: 'interactions: messages were deleted at once (`POST /channels/{id}/messages/bulk-delete`)',
    consumers: 'dispatcher: MESSAGE_DELETE_BULK, the same way',
  },
  'interactions.reaction.added': {
    producer: 'interactions: a user or bot reacted to a message',
    consumers:
      'dispatcher: MESSAGE_REACTION_ADD to the users who may view the channel and the bots that may (GUILD_MESSAGE_REACTIONS, DIRECT_MESSAGE_REACTIONS)',
  },
  'interactions.reaction.removed': {
    producer: 'interactions: a reaction was removed (its own, or by a moderator)',
    consumers: 'dispatcher: MESSAGE_REACTION_REMOVE, the same way',
  },
  'interactions.reaction.removed_all': {
    producer: 'interactions: every reaction of a message was removed',
    consumers: 'dispatcher: MESSAGE_REACTION_REMOVE_ALL, the same way',
  },
  'interactions.reaction.removed_emoji': {
    producer: 'interactions: every reaction of one emoji was removed',
    consumers: 'dispatcher: MESSAGE_REACTION_REMOVE_EMOJI, the same way',
  },
  'interactions.typing.started': {
    producer: 'interactions: a user or bot triggered the typing indicator (`POST /channels/{id}/typing`)',
    consumers:
      'dispatcher: TYPING_START to the users who may view the channel and the bots that may (GUILD_MESSAGE_TYPING, DIRECT_MESSAGE_TYPING)',
  },
  'interactions.automod_rule.created': {
    producer: 'interactions: a guild’s AutoMod rule was created (`POST /guilds/{id}/auto-moderation/rules`)',
    consumers:
      'dispatcher: AUTO_MODERATION_RULE_CREATE to the guild’s bots with MANAGE_GUILD (AUTO_MODERATION_CONFIGURATION)',
  },
  'interactions.automod_rule.updated': {
    producer: 'interactions: an AutoMod rule was changed (`PATCH …/auto-moderation/rules/{id}`)',
    consumers: 'dispatcher: AUTO_MODERATION_RULE_UPDATE, the same way',
  },
  'interactions.automod_rule.deleted': {
    producer: 'interactions: an AutoMod rule was deleted (`DELETE …/auto-moderation/rules/{id}`)',
    consumers: 'dispatcher: AUTO_MODERATION_RULE_DELETE, the same way',
  },
  'interactions.automod.action_executed': {
    producer:
      'interactions: an AutoMod rule’s action ran on a member’s message (create or edit), one event per action',
    consumers:
      'dispatcher: AUTO_MODERATION_ACTION_EXECUTION to the guild’s bots with MANAGE_GUILD (AUTO_MODERATION_EXECUTION; `content` and `matched_content` empty without MESSAGE_CONTENT)',
  },
  'lobby.lobby.created': {
    producer: 'lobby: a lobby was created (by a bot, or by create-or-join)',
    consumers: "dispatcher: LOBBY_CREATE to the members' sessions",
  },
  'lobby.lobby.updated': {
    producer: "lobby: a lobby's metadata, flags, timeout or linked channel changed",
    consumers: "dispatcher: LOBBY_UPDATE to the members' sessions",
  },
  'lobby.lobby.deleted': {
    producer: 'lobby: a lobby was deleted, idled out, or a member was removed from it (their view)',
    consumers: "dispatcher: LOBBY_DELETE `{id, reason}` to the members' sessions",
  },
  'lobby.member.changed': {
    producer: 'lobby: a member was added, updated or removed',
    consumers: 'dispatcher: LOBBY_MEMBER_ADD / _UPDATE / _REMOVE to the members',
  },
  'lobby.message.created': {
    producer: 'lobby: a member or the bot sent a message to a lobby',
    consumers:
      "dispatcher: LOBBY_MESSAGE_CREATE to the members and as a webhook event (the lobby's override URL when set); interactions: posts it to the linked channel",
  },
  'lobby.message.updated': {
    producer: "lobby: a message's moderation metadata changed",
    consumers: 'dispatcher: LOBBY_MESSAGE_UPDATE, the same routes',
  },
  'lobby.merge.completed': {
    producer: "lobby: a merged provisional account's lobby memberships moved (the merge is complete)",
    consumers:
      "dispatcher: USER_MERGE_OPERATION_COMPLETED `{merge_operation_id, source_user_id}` to the full account's sessions",
  },
};
