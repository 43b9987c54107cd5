'use strict';
const { adminExpect } = require('./admin-client');

/** PermissionFlagsBits that the demo role holds: VIEW_CHANNEL | SEND_MESSAGES | USE_APPLICATION_COMMANDS. */
const DEMO_ROLE_PERMISSIONS = String((1n << 10n) | (1n << 11n) | (1n << 31n));
/** Scopes with which the demo app is installed in the demo guild. */
const INSTALL_SCOPES = 'bot applications.commands';

/**
 * @typedef {object} DemoWorld
 * @property {{ id: string, username: string }} user      owner of the guild and of the app
 * @property {{ id: string, name: string }} guild
 * @property {{ id: string, name: string }} role
 * @property {{ id: string, name: string }} channel       a text channel
 * @property {{ id: string, name: string, verifyKey: string, botToken: string, clientSecret: string }} application
 */

/**
 * Builds the typical world of ADMIN-API.md through the admin API: a user, a guild they
 * own with a role and a text channel, an application with its bot, installed in the
 * guild with `bot applications.commands`. Names can be changed so that several worlds
 * share one database.
 *
 * @param {import('./admin-client').AdminRequest} admin
 * @param {{ username?: string, guildName?: string, applicationName?: string }} [names]
 * @returns {Promise<DemoWorld>}
 */
async function createDemoWorld(admin, names = {}) {
  const user = await adminExpect(admin, 201, 'POST', '/admin/users', {
    username: names.username ?? 'demo-owner',
  });
  const guild = await adminExpect(admin, 201, 'POST', '/admin/guilds', {
    name: names.guildName ?? 'Demo Guild',
    owner_id: user.id,
  });
  const role = await adminExpect(admin, 201, 'POST', `/admin/guilds/${guild.id}/roles`, {
    name: 'Member',
    permissions: DEMO_ROLE_PERMISSIONS,
  });
  const channel = await adminExpect(admin, 201, 'POST', `/admin/guilds/${guild.id}/channels`, {
    name: 'general',
    type: 0,
  });
  const application = await adminExpect(admin, 201, 'POST', '/admin/applications', {
    name: names.applicationName ?? 'Demo App',
    owner_id: user.id,
  });
  await adminExpect(admin, 200, 'POST', '/admin/oauth2/authorize', {
    client_id: application.id,
    user_id: user.id,
    scope: INSTALL_SCOPES,
    guild_id: guild.id,
  });
  return {
    user: { id: user.id, username: user.username },
    guild: { id: guild.id, name: guild.name },
    role: { id: role.id, name: role.name },
    channel: { id: channel.id, name: channel.name },
    application: {
      id: application.id,
      name: application.name,
      verifyKey: application.verify_key,
      botToken: application.bot_token,
      clientSecret: application.client_secret,
    },
  };
}

module.exports = { createDemoWorld, INSTALL_SCOPES };
