'use strict';
/**
 * What the benches build in the demo world beyond it: invoking members, an app answered at
 * its Interactions Endpoint, an app holding realistic commands, and the invocation payload.
 */
const { adminExpect } = require('../../infra/src/admin-client');
const { realisticCommands } = require('./realistic-commands');

/** Discord's epoch (2015-01-01) in Unix milliseconds: snowflakes count from it. */
const DISCORD_EPOCH_MS = 1420070400000;

/** The `/bench marker:<m>` guild command the invocation benches register. */
const BENCH_COMMAND = {
  name: 'bench',
  description: 'Bench',
  options: [{ name: 'marker', description: 'm', type: 3, required: true }],
};

/**
 * A snowflake-shaped nonce of now and `seq` (its low 22 bits), as clients send with an invocation.
 * @param {number} seq
 */
function nonceOf(seq) {
  return String((BigInt(Date.now() - DISCORD_EPOCH_MS) << 22n) | BigInt(seq & 0x3fffff));
}

/**
 * The body of `POST /interactions` that invokes `command` (a registered guild command with
 * one string option `marker`) in `world`'s channel.
 * @param {{ applicationId: string, world: any, command: { id: string, name: string, version: string }, marker: string, seq: number }} invocation
 */
function slashInvocation({ applicationId, world, command, marker, seq }) {
  return {
    type: 2,
    application_id: applicationId,
    guild_id: world.guild.id,
    channel_id: world.channel.id,
    nonce: nonceOf(seq),
    data: {
      id: command.id,
      name: command.name,
      type: 1,
      version: command.version,
      options: [{ name: 'marker', type: 3, value: marker }],
    },
  };
}

/**
 * `count` users `<prefix><i>`, members of `world`'s guild with its role; their session tokens.
 * @param {import('../../infra/src/admin-client').AdminRequest} admin
 * @param {any} world
 * @param {number} count
 * @param {string} [prefix]
 * @returns {Promise<string[]>}
 */
async function createMemberSessions(admin, world, count, prefix = 'bench') {
  const tokens = [];
  for (let i = 0; i < count; i++) {
    const user = await adminExpect(admin, 201, 'POST', '/admin/users', { username: `${prefix}${i}` });
    await admin('PUT', `/admin/guilds/${world.guild.id}/members/${user.id}`, { roles: [world.role.id] });
    tokens.push((await adminExpect(admin, 201, 'POST', `/admin/users/${user.id}/sessions`)).token);
  }
  return tokens;
}

/**
 * A new app "Bench HTTP" authorized (bot + commands) in `world`'s guild; the admin API's answer (id, bot_token, verify_key).
 * @param {import('../../infra/src/admin-client').AdminRequest} admin
 * @param {any} world
 */
async function createGuildApp(admin, world) {
  const app = await adminExpect(admin, 201, 'POST', '/admin/applications', { name: 'Bench HTTP' });
  await adminExpect(admin, 200, 'POST', '/admin/oauth2/authorize', {
    client_id: app.id,
    user_id: world.user.id,
    scope: 'bot applications.commands',
    guild_id: world.guild.id,
  });
  return app;
}

/**
 * Sets the Interactions Endpoint URL of the app `applicationId`.
 * @param {import('../../infra/src/admin-client').AdminRequest} admin
 * @param {string} applicationId
 * @param {string} url
 */
function setInteractionsEndpoint(admin, applicationId, url) {
  return adminExpect(admin, 200, 'PATCH', `/admin/applications/${applicationId}`, {
    interactions_endpoint_url: url,
  });
}

/**
 * Registers `commands` as the guild commands of `applicationId` in `world`'s guild; the registered commands.
 * @param {string} apiUrl
 * @param {{ applicationId: string, botToken: string, world: any }} target
 * @param {unknown[]} commands
 */
async function registerGuildCommands(apiUrl, { applicationId, botToken, world }, commands) {
  const response = await fetch(
    `${apiUrl}/api/v10/applications/${applicationId}/guilds/${world.guild.id}/commands`,
    {
      method: 'PUT',
      headers: { Authorization: `Bot ${botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(commands),
    },
  );
  const text = await response.text();
  if (response.status !== 200) throw new Error(`registering failed: ${response.status} ${text}`);
  return JSON.parse(text);
}

/**
 * The invoked app of the invocation benches: a new app "Bench HTTP" authorized in `world`'s
 * guild, answering at the receiver `startReceiver(app)` starts (its Interactions Endpoint
 * URL is the receiver's /interactions), with `/bench` (BENCH_COMMAND) registered there, and
 * `members` invoking members (createMemberSessions).
 * @template {{ url: string }} R
 * @param {string} apiUrl
 * @param {import('../../infra/src/admin-client').AdminRequest} admin
 * @param {any} world
 * @param {{ members: number, startReceiver: (app: { id: string, bot_token: string, verify_key: string }) => Promise<R> }} how
 * @returns {Promise<{ app: any, receiver: R, command: any, tokens: string[] }>} tokens: the members' sessions
 */
async function createInvokedApp(apiUrl, admin, world, { members, startReceiver }) {
  const app = await createGuildApp(admin, world);
  const receiver = await startReceiver(app);
  await setInteractionsEndpoint(admin, app.id, `${receiver.url}/interactions`);
  const [command] = await registerGuildCommands(
    apiUrl,
    { applicationId: app.id, botToken: app.bot_token, world },
    [BENCH_COMMAND],
  );
  const tokens = await createMemberSessions(admin, world, members);
  return { app, receiver, command, tokens };
}

/**
 * A new app "Bench App" owned by `world`'s user, holding 50 global commands of ~1 KB
 * (realistic-commands.js).
 * @param {string} apiUrl
 * @param {import('../../infra/src/admin-client').AdminRequest} admin
 * @param {any} world
 * @returns {Promise<{ id: string, authorization: string, commandsPath: string, commandIds: string[] }>}
 *   authorization: `Bot <token>`; commandsPath: /api/v10/applications/{id}/commands
 */
async function createCommandsApp(apiUrl, admin, world) {
  const app = await adminExpect(admin, 201, 'POST', '/admin/applications', {
    name: 'Bench App',
    owner_id: world.user.id,
  });
  const authorization = `Bot ${app.bot_token}`;
  const commandsPath = `/api/v10/applications/${app.id}/commands`;
  const put = await fetch(`${apiUrl}${commandsPath}`, {
    method: 'PUT',
    headers: { Authorization: authorization, 'Content-Type': 'application/json' },
    body: JSON.stringify(realisticCommands(50)),
  });
  if (put.status !== 200) throw new Error(`seeding commands failed: ${put.status} ${await put.text()}`);
  const commandIds = (await put.json()).map((command) => command.id);
  return { id: app.id, authorization, commandsPath, commandIds };
}

module.exports = {
  BENCH_COMMAND,
  nonceOf,
  slashInvocation,
  createMemberSessions,
  createInvokedApp,
  setInteractionsEndpoint,
  registerGuildCommands,
  createCommandsApp,
};
