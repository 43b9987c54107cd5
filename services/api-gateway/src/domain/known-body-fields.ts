/**
 * The JSON body fields of the routes that report ignored fields, by route id (method and
 * Express path). `true`: ACS reads it. `'not-modelled'`: Discord's API knows it and ACS
 * accepts it without acting on it. An object: a known object whose own fields are checked;
 * `[object]`: an array of them. Field names come from Discord's OpenAPI schemas
 * (MessageCreateRequest, MessageEditRequestPartial, IncomingWebhookRequestPartial,
 * IncomingWebhookUpdateRequestPartial, the interaction callback requests,
 * ApplicationCommandCreateRequest and ApplicationCommandPatchRequestPartial, RichEmbed);
 * which of them ACS models comes from the services' validators.
 */
export type FieldSpec = { [field: string]: true | 'not-modelled' | FieldSpec | [FieldSpec] };

/** RichEmbed: `type`, `provider` and `video` are the unfurler's, ignored by Discord too. */
const EMBED: FieldSpec = {
  title: true,
  type: true,
  description: true,
  url: true,
  timestamp: true,
  color: true,
  footer: { text: true, icon_url: true },
  image: { url: true },
  thumbnail: { url: true },
  video: true,
  provider: true,
  author: { name: true, url: true, icon_url: true },
  fields: [{ name: true, value: true, inline: true }],
};

const MESSAGE_COMMON: FieldSpec = {
  content: true,
  embeds: [EMBED],
  components: true,
  allowed_mentions: { parse: true, roles: true, users: true, replied_user: true },
  attachments: true,
  flags: true,
};

const CREATE_MESSAGE: FieldSpec = {
  ...MESSAGE_COMMON,
  tts: true,
  nonce: true,
  enforce_nonce: true,
  message_reference: {
    type: true,
    message_id: true,
    channel_id: true,
    guild_id: true,
    fail_if_not_exists: true,
  },
  sticker_ids: true,
  poll: true,
  shared_client_theme: 'not-modelled',
};

const EDIT_MESSAGE: FieldSpec = { ...MESSAGE_COMMON, sticker_ids: true };

/** An interaction's webhook: the follow-up (IncomingWebhookRequestPartial) and edits. */
const EXECUTE_WEBHOOK: FieldSpec = {
  ...MESSAGE_COMMON,
  tts: true,
  poll: true,
  username: 'not-modelled',
  avatar_url: 'not-modelled',
  thread_name: 'not-modelled',
  applied_tags: 'not-modelled',
};

const EDIT_WEBHOOK_MESSAGE: FieldSpec = { ...MESSAGE_COMMON, poll: true };

/** A callback's `data`, whatever its type: a message (4, 7), choices (8) or a modal (9). */
const CALLBACK: FieldSpec = {
  type: true,
  data: { ...MESSAGE_COMMON, tts: true, poll: true, choices: true, custom_id: true, title: true },
};

const COMMAND: FieldSpec = {
  name: true,
  name_localizations: true,
  description: true,
  description_localizations: true,
  options: true,
  default_member_permissions: true,
  dm_permission: true,
  default_permission: 'not-modelled',
  integration_types: true,
  contexts: true,
  nsfw: true,
  handler: true,
  type: true,
};

/** Modify Guild Member: ACS keeps no server mute, deafen, voice move or member flags. */
const MODIFY_MEMBER: FieldSpec = {
  nick: true,
  roles: true,
  communication_disabled_until: true,
  mute: 'not-modelled',
  deaf: 'not-modelled',
  channel_id: 'not-modelled',
  flags: 'not-modelled',
};

const WEBHOOK = '/webhooks/:webhook_id/:webhook_token';

/** What a route's body is: one known object, or an array of them (`[spec]`). */
export type BodySpec = FieldSpec | [FieldSpec];

/** Known fields by route id (`METHOD /path` with Express parameters). */
export const KNOWN_BODY_FIELDS: Readonly<Record<string, BodySpec>> = {
  'POST /channels/:channel_id/messages': CREATE_MESSAGE,
  'PATCH /channels/:channel_id/messages/:message_id': EDIT_MESSAGE,
  'POST /interactions/:interaction_id/:interaction_token/callback': CALLBACK,
  [`POST ${WEBHOOK}`]: EXECUTE_WEBHOOK,
  [`PATCH ${WEBHOOK}/messages/:message_id`]: EDIT_WEBHOOK_MESSAGE,
  'POST /applications/:application_id/commands': COMMAND,
  'PUT /applications/:application_id/commands': [{ ...COMMAND, id: true }],
  'PUT /applications/:application_id/guilds/:guild_id/commands': [{ ...COMMAND, id: true }],
  'PATCH /applications/:application_id/commands/:command_id': COMMAND,
  'POST /applications/:application_id/guilds/:guild_id/commands': COMMAND,
  'PATCH /applications/:application_id/guilds/:guild_id/commands/:command_id': COMMAND,
  'PATCH /guilds/:guild_id/members/:user_id': MODIFY_MEMBER,
};
