import { PERMISSION_FLAGS as P } from '../permission-flags';

// Permissions in DMs and group DMs, where there are no roles or overwrites to compute from.

/**
 * What an app may do in a (group) DM with other users: D:interactions/receiving-and-responding.mdx
 * §Interaction Object says `app_permissions` "includes ATTACH_FILES | EMBED_LINKS |
 * MENTION_EVERYONE permissions for (G)DMs with other users", and the user-installable app
 * tutorial's sample payload from a bot DM carries exactly "442368", the four bits of
 * `BOT_DM_APP_PERMISSIONS` and nothing else: the app answers through its interaction
 * token, so no VIEW_CHANNEL or SEND_MESSAGES bits are reported.
 */
export const DM_APP_PERMISSIONS = P.ATTACH_FILES | P.EMBED_LINKS | P.MENTION_EVERYONE;

/** In the DM with the app's own bot user, also USE_EXTERNAL_EMOJIS (same source): 442368. */
export const BOT_DM_APP_PERMISSIONS = DM_APP_PERMISSIONS | P.USE_EXTERNAL_EMOJIS;

/**
 * What a user may do in a DM or group DM. Discord documents no value for this (DMs have no
 * permission computation in D:topics/permissions.mdx); this is our choice: every action a
 * user has in a DM in the client (read and send messages with embeds, files, mentions,
 * reactions, external emojis and stickers, voice messages, polls, calls with voice, video
 * and activities, application commands and user-installed apps, pinning messages) and no
 * management bits, since a DM has no roles to grant them. A USER command's SEND_MESSAGES requirement holds.
 */
export const DM_USER_PERMISSIONS =
  P.VIEW_CHANNEL |
  P.SEND_MESSAGES |
  P.SEND_TTS_MESSAGES |
  P.EMBED_LINKS |
  P.ATTACH_FILES |
  P.READ_MESSAGE_HISTORY |
  P.MENTION_EVERYONE |
  P.ADD_REACTIONS |
  P.USE_EXTERNAL_EMOJIS |
  P.USE_EXTERNAL_STICKERS |
  P.SEND_VOICE_MESSAGES |
  P.SEND_POLLS |
  P.CONNECT |
  P.SPEAK |
  P.STREAM |
  P.USE_VAD |
  P.USE_EMBEDDED_ACTIVITIES |
  P.USE_APPLICATION_COMMANDS |
  P.USE_EXTERNAL_APPS |
  P.PIN_MESSAGES;
