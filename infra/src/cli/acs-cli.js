'use strict';
/**
 * `npx acs`: invoke a bot's commands from a terminal as a user of the chat client would,
 * against a running ACS, and print the app's answer. Defaults come from the demo world
 * that `npm start` seeded (.data/seed.json), so that `npx acs invoke "/ping"` works in a
 * fresh clone; every default can be overridden.
 */
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { parseInvocation } = require('./parse-invocation');

const USAGE = `usage:
  npx acs [commands]                 list the commands the user can use here
  npx acs invoke "/name opt:value"   invoke a slash command and print the app's answer
  npx acs invoke --target ID "Name"  invoke a USER or MESSAGE command on a target
  npx acs autocomplete "/name opt:Pa?"  ask the app for choices (? marks the focused option)
  npx acs click MESSAGE CUSTOM_ID    click a button of a message the app posted
  npx acs select MESSAGE CUSTOM_ID VALUE...  pick values in a select (--type 5-8: user, role,
                                     mentionable, channel select; default 3, a string select)
  npx acs submit-modal INTERACTION CUSTOM_ID input=text list[]=a,b [--file upload=PATH]...
                                     submit the modal INTERACTION opened (its custom_id), with
                                     each input's answer: text, or [] values of a select; each
                                     --file uploads PATH for the file upload custom_id upload

options (defaults: the demo world of .data/seed.json):
  --base URL          ACS's base URL (ACS_URL; else the running npm start's; else http://127.0.0.1:8080)
  --admin-token T     the admin token (ADMIN_TOKEN; else .data/admin-token)
  --app ID            the application whose command to invoke
  --guild ID          the guild to invoke in; --dm to invoke in the DM with the app's bot
  --channel ID        the channel (required with --guild when it is not the demo guild)
  --user ID           the user who invokes
  --bot-token T       the app's bot token, to list commands outside a guild (--dm)
  --json              print the raw outcome JSON
  --type N            the select's component type (select)
  --file ID=PATH      a file for the modal's file upload ID (submit-modal; repeatable)
`;

/**
 * @param {string[]} argv
 * @returns {{ command: string, line?: string, args: string[], flags: Record<string, string | true> }}
 */
function parseArgs(argv) {
  const flags = {};
  const files = [];
  const positional = [];
  const booleans = new Set(['json', 'dm', 'help']);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h') flags.help = true;
    else if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
      if (booleans.has(name)) flags[name] = true;
      else if (name === 'file') {
        if (inline !== undefined) files.push(inline);
        else if (i + 1 < argv.length) files.push(argv[++i]);
        else throw new Error('--file needs a value');
      } else if (inline !== undefined) flags[name] = inline;
      else if (i + 1 < argv.length) flags[name] = argv[++i];
      else throw new Error(`--${name} needs a value`);
    } else positional.push(arg);
  }
  const command = positional[0] ?? 'commands';
  return {
    command,
    line: positional.slice(1).join(' ') || undefined,
    args: positional.slice(1),
    flags,
    files,
  };
}

function readDataFile(dataDir, name) {
  const file = path.join(dataDir, name);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
}

/** The settings of one run: flags, then the environment, then the files npm start wrote. */
function resolveSettings(flags, env, dataDir) {
  const seedText = readDataFile(dataDir, 'seed.json');
  const seed = seedText ? JSON.parse(seedText) : undefined;
  const stackText = readDataFile(dataDir, 'stack.json');
  const stack = stackText ? JSON.parse(stackText) : undefined;
  const need = (value, what) => {
    if (value === undefined || value === true || value === '')
      throw new Error(`${what} is unknown: pass it, or run npm start once to seed the demo world`);
    return String(value);
  };
  const dm = Boolean(flags.dm);
  // In a guild, every app's commands are candidates unless --app narrows them; a DM is
  // with one app's bot.
  const appId = dm
    ? need(flags.app ?? seed?.application?.id, '--app')
    : flags.app === undefined
      ? undefined
      : String(flags.app);
  const guildId = dm ? undefined : need(flags.guild ?? seed?.guild?.id, '--guild');
  const sameGuild = guildId !== undefined && guildId === seed?.guild?.id;
  return {
    base: String(flags.base ?? env.ACS_URL ?? stack?.apiUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, ''),
    adminToken: need(
      flags['admin-token'] ?? env.ADMIN_TOKEN ?? readDataFile(dataDir, 'admin-token')?.trim(),
      '--admin-token',
    ),
    appId,
    guildId,
    channelId: dm
      ? undefined
      : need(flags.channel ?? (sameGuild ? seed?.channel?.id : undefined), '--channel'),
    userId: need(flags.user ?? seed?.user?.id, '--user'),
    botToken:
      flags['bot-token'] ?? (appId === seed?.application?.id ? seed?.application?.botToken : undefined),
    json: Boolean(flags.json),
    target: flags.target,
    componentType: flags.type,
    seedAppId: seed?.application?.id,
  };
}

/**
 * One HTTP call; answers `{status, body}` and never throws on a status. With `files`, the
 * body goes as multipart/form-data: `payload_json` first, then each file as `files[n]`.
 */
async function call(base, method, route, { token, body, files } = {}) {
  let sent = body === undefined ? undefined : JSON.stringify(body);
  if (files && files.length > 0) {
    const form = new FormData();
    form.append('payload_json', sent ?? '{}');
    files.forEach((file, n) =>
      form.append(`files[${n}]`, new Blob([fs.readFileSync(file)]), path.basename(file)),
    );
    sent = form;
  }
  const response = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(token ? { Authorization: token } : {}),
      ...(typeof sent === 'string' ? { 'Content-Type': 'application/json' } : {}),
    },
    body: sent,
  });
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed };
}

/** Discord's error body as lines: `code message` and each leaf of the `errors` tree with its path. */
function describeError({ status, body }) {
  if (!body || typeof body !== 'object') return `HTTP ${status}${body ? `: ${body}` : ''}`;
  const lines = [`HTTP ${status}: ${body.message ?? 'error'} (code ${body.code})`];
  const walk = (node, at) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '_errors' && Array.isArray(value)) {
        for (const e of value) lines.push(`  ${at || '(body)'}: ${e.message} [${e.code}]`);
      } else walk(value, at ? `${at}.${key}` : key);
    }
  };
  walk(body.errors, '');
  return lines.join('\n');
}

async function sessionToken(settings) {
  const created = await call(settings.base, 'POST', `/admin/users/${settings.userId}/sessions`, {
    token: `Admin ${settings.adminToken}`,
  });
  if (created.status !== 201)
    throw new Error(`could not open a session for user ${settings.userId}:\n${describeError(created)}`);
  return created.body.token;
}

/** The commands of the app the user may use here, as the chat client's command picker gets them. */
async function listCommands(settings, token) {
  if (settings.guildId) {
    const index = await call(
      settings.base,
      'GET',
      `/api/v10/guilds/${settings.guildId}/application-command-index?channel_id=${settings.channelId}`,
      { token },
    );
    if (index.status !== 200)
      throw new Error(`could not list the guild's commands:\n${describeError(index)}`);
    const commands = index.body.application_commands;
    return settings.appId ? commands.filter((c) => c.application_id === settings.appId) : commands;
  }
  if (!settings.botToken) throw new Error('outside a guild, listing commands needs --bot-token');
  const global = await call(settings.base, 'GET', `/api/v10/applications/${settings.appId}/commands`, {
    token: `Bot ${settings.botToken}`,
  });
  if (global.status !== 200) throw new Error(`could not list the app's commands:\n${describeError(global)}`);
  // In a DM only commands whose contexts include the bot DM (1) can be used.
  return global.body.filter((c) => !c.contexts || c.contexts.includes(1));
}

/** The DM channel of the user with the app's bot (the BOT_DM context). */
async function botDmChannel(settings, token) {
  const opened = await call(settings.base, 'POST', '/api/v10/users/@me/channels', {
    token,
    body: { recipient_id: settings.appId },
  });
  if (opened.status !== 200) throw new Error(`could not open the DM with the bot:\n${describeError(opened)}`);
  return opened.body.id;
}

/** Option type names as the command bar hints them. */
const TYPE_NAMES = {
  3: 'text',
  4: 'integer',
  5: 'true|false',
  6: 'user',
  7: 'channel',
  8: 'role',
  9: 'mentionable',
  10: 'number',
  11: 'file',
};

function signature(command) {
  const render = (options = []) =>
    options
      .map((o) => {
        if (o.type === 1 || o.type === 2) return `${o.name} ${render(o.options)}`.trim();
        const hint = `${o.name}:<${TYPE_NAMES[o.type] ?? o.type}>`;
        return o.required ? hint : `[${hint}]`;
      })
      .join(' ');
  const kinds = { 1: '/', 2: 'user command: ', 3: 'message command: ', 4: 'entry point: ' };
  return `${kinds[command.type ?? 1] ?? ''}${command.name} ${render(command.options)}`.trim();
}

/** What the user would see: the messages the app posted, its choices, or why it failed. */
function describeOutcome(outcome) {
  const lines = [];
  if (outcome.outcome === 'failure') {
    const reasons = {
      1: 'the app could not be reached or answered badly',
      2: 'the app did not answer in time',
    };
    lines.push(
      `✗ the interaction failed (reason ${outcome.reason_code}: ${reasons[outcome.reason_code] ?? 'unknown'})`,
    );
  }
  if (outcome.response?.type === 8) {
    const choices = outcome.response.data?.choices ?? [];
    lines.push(
      `${choices.length} choice(s):`,
      ...choices.map((c) => `  ${c.name} = ${JSON.stringify(c.value)}`),
    );
  }
  if (outcome.response?.type === 9)
    lines.push(...describeModal(outcome.interaction?.id, outcome.response.data));
  for (const message of outcome.messages ?? []) {
    const marks = [];
    if (message.flags & 64) marks.push('only you can see this');
    if (message.flags & 128) marks.push('thinking…');
    const author = message.author?.username ?? 'app';
    lines.push(`${author}${marks.length ? ` (${marks.join(', ')})` : ''}: ${message.content ?? ''}`);
    for (const embed of message.embeds ?? []) {
      lines.push(`  ┃ ${[embed.title, embed.description].filter(Boolean).join(' — ')}`);
      for (const field of embed.fields ?? []) lines.push(`  ┃ ${field.name}: ${field.value}`);
    }
    lines.push(...describeComponents(message));
  }
  if (outcome.outcome === 'success' && lines.length === 0) lines.push('✓ acknowledged');
  return lines.join('\n');
}

/** Component types as the CLI names them. */
const COMPONENT_NAMES = {
  2: 'button',
  3: 'select',
  5: 'user select',
  6: 'role select',
  7: 'mentionable select',
  8: 'channel select',
  10: 'text',
};

/**
 * A message's components as lines: each button and select with what `npx acs click` or
 * `select` needs (the message id and the custom_id), text displays as text.
 */
function describeComponents(message) {
  const lines = [];
  const visit = (component, depth) => {
    if (!component || typeof component !== 'object') return;
    const pad = '  '.repeat(depth);
    const name = COMPONENT_NAMES[component.type];
    if (component.type === 10) lines.push(`${pad}${component.content}`);
    else if (component.type === 2 && component.style === 5)
      lines.push(`${pad}[link ${component.label ?? ''}] ${component.url}`);
    else if (component.type === 2 && component.style === 6)
      lines.push(`${pad}[premium button] sku ${component.sku_id}`);
    else if (name && component.custom_id !== undefined) {
      const options = (component.options ?? []).map((o) => o.value).join('|');
      const label = component.label ?? component.placeholder ?? '';
      const off = component.disabled ? ' (disabled)' : '';
      lines.push(
        `${pad}[${name}${label ? ` "${label}"` : ''}${off}] ${component.custom_id}${options ? ` = ${options}` : ''}`,
      );
    }
    for (const child of component.components ?? []) visit(child, depth + 1);
    if (component.accessory) visit(component.accessory, depth + 1);
  };
  for (const component of message.components ?? []) visit(component, 1);
  if (lines.length > 0) lines.unshift(`  components of message ${message.id}:`);
  return lines;
}

/** A modal the app opened: its title and inputs, and how to submit it. */
function describeModal(interactionId, modal) {
  const lines = [`modal "${modal?.title}" (${modal?.custom_id}), opened by interaction ${interactionId}:`];
  const visit = (component) => {
    if (!component || typeof component !== 'object') return;
    if (component.type === 18) {
      const input = component.component ?? {};
      const upload = input.type === 19 ? ` (files: --file ${input.custom_id}=PATH)` : '';
      lines.push(
        `  ${component.label}: ${input.custom_id}${input.required === false ? ' (optional)' : ''}${upload}`,
      );
      return;
    }
    if (component.type === 4)
      lines.push(`  ${component.label ?? component.custom_id}: ${component.custom_id}`);
    if (component.type === 10) lines.push(`  ${component.content}`);
    for (const child of component.components ?? []) visit(child);
  };
  for (const component of modal?.components ?? []) visit(component);
  lines.push(`  submit: npx acs submit-modal ${interactionId} ${modal?.custom_id} <custom_id>=<answer>…`);
  return lines;
}

/** `input=text` and `list[]=a,b` answers as the chat client submits them: one label each. */
function modalAnswers(pairs) {
  return pairs.map((pair) => {
    const match = /^([^=]+?)(\[\])?=(.*)$/s.exec(pair);
    if (!match) throw new Error(`a modal answer is custom_id=text or custom_id[]=a,b, not "${pair}"`);
    const [, customId, list, value] = match;
    const component = list
      ? { type: 3, custom_id: customId, values: value === '' ? [] : value.split(',') }
      : { type: 4, custom_id: customId, value };
    return { type: 18, component };
  });
}

/**
 * `custom_id=path` files as a modal submit's FILE_UPLOAD answers (one label per custom_id,
 * `values` the indices `n` of `files[n]`) and the paths to send, in order.
 */
function modalFiles(pairs) {
  const paths = [];
  const byCustomId = new Map();
  for (const pair of pairs) {
    const match = /^([^=]+)=(.+)$/s.exec(pair);
    if (!match) throw new Error(`a file is --file custom_id=path, not "${pair}"`);
    const [, customId, file] = match;
    if (!fs.existsSync(file)) throw new Error(`no file at "${file}"`);
    byCustomId.set(customId, [...(byCustomId.get(customId) ?? []), String(paths.length)]);
    paths.push(file);
  }
  const components = [...byCustomId].map(([customId, values]) => ({
    type: 18,
    component: { type: 19, custom_id: customId, values },
  }));
  return { components, paths };
}

/** A snowflake-like nonce, as the chat client makes one. */
function newNonce() {
  return String(
    (BigInt(Date.now() - 1420070400000) << 22n) | BigInt(randomBytes(2).readUInt16BE() & 0x3fffff),
  );
}

/**
 * Sends a component interaction (click, select) or a modal submit with `?wait=true` and
 * prints what the app answered; the app is --app (else the demo app), the place --guild
 * and --channel (else the demo guild's), or --dm.
 */
async function followOn(command, args, settings, token, out, filePairs = []) {
  const applicationId = settings.appId ?? settings.seedAppId;
  if (!applicationId) throw new Error('--app is unknown: pass the app whose message or modal this is');
  const [first, customId, ...rest] = args;
  if (!first || !customId)
    throw new Error(
      `${command} needs ${command === 'submit-modal' ? 'INTERACTION' : 'MESSAGE'} and CUSTOM_ID\n\n${USAGE}`,
    );
  const channelId = settings.channelId ?? (await botDmChannel({ ...settings, appId: applicationId }, token));
  const place = { ...(settings.guildId ? { guild_id: settings.guildId } : {}), channel_id: channelId };
  let body;
  let files = [];
  if (command === 'submit-modal') {
    const uploads = modalFiles(filePairs);
    files = uploads.paths;
    body = {
      type: 5,
      data: { id: first, custom_id: customId, components: [...modalAnswers(rest), ...uploads.components] },
    };
  } else {
    if (filePairs.length > 0) throw new Error('--file is for submit-modal');
    const componentType = command === 'click' ? 2 : Number(settings.componentType ?? 3);
    body = {
      type: 3,
      message_id: first,
      data: {
        component_type: componentType,
        custom_id: customId,
        ...(command === 'select' ? { values: rest } : {}),
      },
    };
  }
  const sent = await call(settings.base, 'POST', '/api/v10/interactions?wait=true', {
    token,
    body: { ...body, application_id: applicationId, ...place, nonce: newNonce() },
    files,
  });
  if (sent.status !== 200) {
    out(describeError(sent));
    return 1;
  }
  out(settings.json ? JSON.stringify(sent.body, null, 2) : describeOutcome(sent.body));
  return sent.body.outcome === 'success' ? 0 : 1;
}

/**
 * Runs the CLI; resolves to the exit code.
 *
 * @param {string[]} argv
 * @param {{ env?: NodeJS.ProcessEnv, dataDir: string, out?: (s: string) => void }} io
 */
async function runCli(argv, io) {
  const out = io.out ?? ((s) => process.stdout.write(`${s}\n`));
  const { command, line, args, flags, files } = parseArgs(argv);
  if (flags.help || command === 'help') {
    out(USAGE);
    return 0;
  }
  if (!['commands', 'invoke', 'autocomplete', 'click', 'select', 'submit-modal'].includes(command)) {
    out(`unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  const settings = resolveSettings(flags, io.env ?? process.env, io.dataDir);
  const token = await sessionToken(settings);
  if (['click', 'select', 'submit-modal'].includes(command))
    return followOn(command, args, settings, token, out, files);
  const commands = await listCommands(settings, token);
  if (command === 'commands') {
    if (commands.length === 0) out('no commands of this app can be used here');
    for (const c of commands) out(`${signature(c).padEnd(40)} ${c.description ?? ''}`.trimEnd());
    return 0;
  }
  if (!line) throw new Error(`${command} needs a command line\n\n${USAGE}`);
  let data;
  if (settings.target !== undefined) {
    const target = commands.find((c) => c.name === line && (c.type === 2 || c.type === 3));
    if (!target) throw new Error(`no user or message command "${line}" here`);
    data = {
      id: target.id,
      name: target.name,
      type: target.type,
      version: target.version,
      target_id: String(settings.target),
    };
    if (target.guild_id) data.guild_id = target.guild_id;
  } else {
    data = parseInvocation(line, commands, { autocomplete: command === 'autocomplete' });
  }
  const named = commands.filter((c) => c.name === data.name && (c.type ?? 1) === data.type);
  if (named.length > 1 && !settings.appId) {
    throw new Error(
      `several apps have ${data.name}: choose one with --app (${named.map((c) => c.application_id).join(', ')})`,
    );
  }
  const applicationId = settings.appId ?? named[0]?.application_id;
  const channelId = settings.channelId ?? (await botDmChannel(settings, token));
  const invoked = await call(settings.base, 'POST', '/api/v10/interactions?wait=true', {
    token,
    body: {
      type: command === 'autocomplete' ? 4 : 2,
      application_id: applicationId,
      ...(settings.guildId ? { guild_id: settings.guildId } : {}),
      channel_id: channelId,
      nonce: newNonce(),
      data,
    },
  });
  if (invoked.status !== 200) {
    out(describeError(invoked));
    return 1;
  }
  out(settings.json ? JSON.stringify(invoked.body, null, 2) : describeOutcome(invoked.body));
  return invoked.body.outcome === 'success' ? 0 : 1;
}

module.exports = {
  runCli,
  parseArgs,
  modalFiles,
  resolveSettings,
  describeOutcome,
  describeError,
  modalAnswers,
  USAGE,
};
