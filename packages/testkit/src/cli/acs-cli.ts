/* eslint-disable @typescript-eslint/no-explicit-any -- Discord's JSON, read field by field */
/**
 * The CLI (`npx acs` in a checkout, `npx acs-testkit` anywhere): invoke a bot's commands
 * from a terminal as a user of the chat client would, against a running ACS, and print
 * the app's answer. Defaults come from the demo world that `npm start` seeded
 * (.data/seed.json), so that `npx acs invoke "/ping"` works in a fresh clone; every default
 * can be overridden.
 */
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { callApi, describeError, type ApiAnswer } from '../http/call-api';
import {
  describeComponents,
  describeFailureReason,
  describeMessage,
  describeModal,
} from '../describe/describe-message';
import { parseInvocation, type ListedCommand } from './parse-invocation';
import { describeEntry, summarize, sweepCommands } from './sweep';

export { describeError };

export const USAGE = `usage:
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
  npx acs sweep                      invoke every command of the app (each subcommand, generated
                                     valid options, every autocomplete option, USER and MESSAGE
                                     commands) and report those that failed, timed out or were
                                     refused; exit code 1 when any did
  (outside a checkout the same CLI is \`npx acs-testkit\`)

options (defaults: the demo world of .data/seed.json):
  --base URL          ACS's base URL (ACS_URL; else the running npm start's; else http://127.0.0.1:8080)
  --admin-token T     the admin token (ACS_ADMIN_TOKEN or ADMIN_TOKEN; else .data/admin-token)
  --app ID            the application whose command to invoke (sweep: default the demo app)
  --guild ID          the guild to invoke in; --dm to invoke in the DM with the app's bot
  --channel ID        the channel (required with --guild when it is not the demo guild)
  --user ID           the user who invokes
  --bot-token T       the app's bot token, to list commands outside a guild (--dm)
  --json              print the raw outcome JSON
  --type N            the select's component type (select)
  --file ID=PATH      a file for the modal's file upload ID (submit-modal; repeatable)
`;

/** The command line, read. */
export interface ParsedArgs {
  command: string;
  line?: string;
  args: string[];
  flags: Record<string, string | true>;
  /** Each `--file custom_id=path`, in order. */
  files: string[];
}

export function parseArgs(argv: string[]): ParsedArgs {
  const flags: Record<string, string | true> = {};
  const files: string[] = [];
  const positional: string[] = [];
  const booleans = new Set(['json', 'dm', 'help']);
  const valueAfter = (i: number, name: string): string => {
    const value = argv[i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h') flags.help = true;
    else if (arg.startsWith('--')) {
      const [name = '', inline] = arg.slice(2).split(/=(.*)/s, 2);
      if (booleans.has(name)) flags[name] = true;
      else if (name === 'file') files.push(inline ?? valueAfter(++i, name));
      else flags[name] = inline ?? valueAfter(++i, name);
    } else positional.push(arg);
  }
  const command = positional[0] ?? 'commands';
  const line = positional.slice(1).join(' ') || undefined;
  return { command, ...(line === undefined ? {} : { line }), args: positional.slice(1), flags, files };
}

function readDataFile(dataDir: string | undefined, name: string): string | undefined {
  if (!dataDir) return undefined;
  const file = join(dataDir, name);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

interface Settings {
  base: string;
  adminToken: string;
  appId: string | undefined;
  guildId: string | undefined;
  channelId: string | undefined;
  userId: string;
  botToken: string | undefined;
  json: boolean;
  target: string | undefined;
  componentType: string | undefined;
  seedAppId: string | undefined;
}

/** The settings of one run: flags, then the environment, then the files npm start wrote. */
function resolveSettings(
  flags: ParsedArgs['flags'],
  env: Record<string, string | undefined>,
  dataDir: string | undefined,
): Settings {
  const seedText = readDataFile(dataDir, 'seed.json');
  const seed = seedText ? JSON.parse(seedText) : undefined;
  const stackText = readDataFile(dataDir, 'stack.json');
  const stack = stackText ? JSON.parse(stackText) : undefined;
  const text = (value: string | true | undefined): string | undefined =>
    value === undefined || value === true || value === '' ? undefined : String(value);
  const need = (value: string | true | undefined, what: string): string => {
    const given = text(value);
    if (given === undefined)
      throw new Error(`${what} is unknown: pass it, or run npm start once to seed the demo world`);
    return given;
  };
  const dm = Boolean(flags.dm);
  // In a guild, every app's commands are candidates unless --app narrows them; a DM is
  // with one app's bot.
  const appId = dm ? need(flags.app ?? seed?.application?.id, '--app') : text(flags.app);
  const guildId = dm ? undefined : need(flags.guild ?? seed?.guild?.id, '--guild');
  const sameGuild = guildId !== undefined && guildId === seed?.guild?.id;
  return {
    base: String(flags.base ?? env.ACS_URL ?? stack?.apiUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, ''),
    adminToken: need(
      flags['admin-token'] ??
        env.ACS_ADMIN_TOKEN ??
        env.ADMIN_TOKEN ??
        readDataFile(dataDir, 'admin-token')?.trim(),
      '--admin-token',
    ),
    appId,
    guildId,
    channelId: dm
      ? undefined
      : need(flags.channel ?? (sameGuild ? seed?.channel?.id : undefined), '--channel'),
    userId: need(flags.user ?? seed?.user?.id, '--user'),
    botToken:
      text(flags['bot-token']) ?? (appId === seed?.application?.id ? seed?.application?.botToken : undefined),
    json: Boolean(flags.json),
    target: text(flags.target),
    componentType: text(flags.type),
    seedAppId: seed?.application?.id,
  };
}

async function sessionToken(settings: Settings): Promise<string> {
  const created = await callApi(settings.base, 'POST', `/admin/users/${settings.userId}/sessions`, {
    token: `Admin ${settings.adminToken}`,
  });
  if (created.status !== 201)
    throw new Error(`could not open a session for user ${settings.userId}:\n${describeError(created)}`);
  return created.body.token;
}

/** The commands of the app the user may use here, as the chat client's command picker gets them. */
async function listCommands(settings: Settings, token: string): Promise<ListedCommand[]> {
  if (settings.guildId) {
    const index = await callApi(
      settings.base,
      'GET',
      `/api/v10/guilds/${settings.guildId}/application-command-index?channel_id=${settings.channelId}`,
      { token },
    );
    if (index.status !== 200)
      throw new Error(`could not list the guild's commands:\n${describeError(index)}`);
    const commands: ListedCommand[] = index.body.application_commands;
    return settings.appId ? commands.filter((c) => c.application_id === settings.appId) : commands;
  }
  if (!settings.botToken) throw new Error('outside a guild, listing commands needs --bot-token');
  const global = await callApi(settings.base, 'GET', `/api/v10/applications/${settings.appId}/commands`, {
    token: `Bot ${settings.botToken}`,
  });
  if (global.status !== 200) throw new Error(`could not list the app's commands:\n${describeError(global)}`);
  // In a DM only commands whose contexts include the bot DM (1) can be used.
  return (global.body as (ListedCommand & { contexts?: number[] })[]).filter(
    (c) => !c.contexts || c.contexts.includes(1),
  );
}

/** The DM channel of the user with the app's bot (the BOT_DM context). */
async function botDmChannel(settings: Pick<Settings, 'base' | 'appId'>, token: string): Promise<string> {
  const opened = await callApi(settings.base, 'POST', '/api/v10/users/@me/channels', {
    token,
    body: { recipient_id: settings.appId },
  });
  if (opened.status !== 200) throw new Error(`could not open the DM with the bot:\n${describeError(opened)}`);
  return opened.body.id;
}

/** Option type names as the command bar hints them. */
const TYPE_NAMES: Record<number, string> = {
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

/** A command as the command bar hints it: `/roll [sides:<integer>]`, `user command: Info`. */
export function signature(command: ListedCommand): string {
  const render = (options: ListedCommand['options'] = []): string =>
    options
      .map((o) => {
        if (o.type === 1 || o.type === 2) return `${o.name} ${render(o.options)}`.trim();
        const hint = `${o.name}:<${TYPE_NAMES[o.type] ?? o.type}>`;
        return o.required ? hint : `[${hint}]`;
      })
      .join(' ');
  const kinds: Record<number, string> = {
    1: '/',
    2: 'user command: ',
    3: 'message command: ',
    4: 'entry point: ',
  };
  return `${kinds[command.type ?? 1] ?? ''}${command.name} ${render(command.options)}`.trim();
}

/** What the user would see: the messages the app posted, its choices, or why it failed. */
export function describeOutcome(outcome: any): string {
  const lines: string[] = [];
  if (outcome.outcome === 'failure') {
    // The server's exact reason first (as the admin timeline says it), then what the code means.
    if (outcome.reason) lines.push(`✗ ${outcome.reason}`);
    lines.push(`${outcome.reason ? '  ' : '✗ '}${describeFailureReason(outcome.reason_code)}`);
  }
  if (outcome.response?.type === 8) {
    const choices = outcome.response.data?.choices ?? [];
    lines.push(
      `${choices.length} choice(s):`,
      ...choices.map((c: any) => `  ${c.name} = ${JSON.stringify(c.value)}`),
    );
  }
  if (outcome.response?.type === 9) {
    const id = outcome.interaction?.id;
    lines.push(
      ...describeModal(id, outcome.response.data, { cli: true }),
      `  submit: npx acs submit-modal ${id} ${outcome.response.data?.custom_id} <custom_id>=<answer>…`,
    );
  }
  for (const message of outcome.messages ?? []) lines.push(...describeMessage(message));
  if (outcome.outcome === 'success' && lines.length === 0) lines.push('✓ acknowledged');
  return lines.join('\n');
}

export { describeComponents };

/** `input=text` and `list[]=a,b` answers as the chat client submits them: one label each. */
export function modalAnswers(pairs: string[]): Record<string, unknown>[] {
  return pairs.map((pair) => {
    const match = /^([^=]+?)(\[\])?=(.*)$/s.exec(pair);
    if (!match) throw new Error(`a modal answer is custom_id=text or custom_id[]=a,b, not "${pair}"`);
    const [, customId, list, value = ''] = match;
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
export function modalFiles(pairs: string[]): { components: Record<string, unknown>[]; paths: string[] } {
  const paths: string[] = [];
  const byCustomId = new Map<string, string[]>();
  for (const pair of pairs) {
    const match = /^([^=]+)=(.+)$/s.exec(pair);
    if (!match) throw new Error(`a file is --file custom_id=path, not "${pair}"`);
    const [, customId = '', file = ''] = match;
    if (!existsSync(file)) throw new Error(`no file at "${file}"`);
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
export function newNonce(): string {
  return String(
    (BigInt(Date.now() - 1420070400000) << 22n) | BigInt(randomBytes(2).readUInt16BE() & 0x3fffff),
  );
}

/** Prints an invocation's answer; the exit code. */
function report(answer: ApiAnswer, settings: Settings, out: (s: string) => void): number {
  if (answer.status !== 200) {
    out(describeError(answer));
    return 1;
  }
  out(settings.json ? JSON.stringify(answer.body, null, 2) : describeOutcome(answer.body));
  return answer.body.outcome === 'success' ? 0 : 1;
}

/**
 * Sends a component interaction (click, select) or a modal submit with `?wait=true` and
 * prints what the app answered; the app is --app (else the demo app), the place --guild
 * and --channel (else the demo guild's), or --dm.
 */
async function followOn(
  command: string,
  args: string[],
  settings: Settings,
  token: string,
  out: (s: string) => void,
  filePairs: string[] = [],
): Promise<number> {
  const applicationId = settings.appId ?? settings.seedAppId;
  if (!applicationId) throw new Error('--app is unknown: pass the app whose message or modal this is');
  const [first, customId, ...rest] = args;
  if (!first || !customId)
    throw new Error(
      `${command} needs ${command === 'submit-modal' ? 'INTERACTION' : 'MESSAGE'} and CUSTOM_ID\n\n${USAGE}`,
    );
  const channelId = settings.channelId ?? (await botDmChannel({ ...settings, appId: applicationId }, token));
  const place = { ...(settings.guildId ? { guild_id: settings.guildId } : {}), channel_id: channelId };
  let body: Record<string, unknown>;
  let files: string[] = [];
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
  const sent = await callApi(settings.base, 'POST', '/api/v10/interactions?wait=true', {
    token,
    body: { ...body, application_id: applicationId, ...place, nonce: newNonce() },
    files,
  });
  return report(sent, settings, out);
}

/** How the CLI runs: where npm start keeps its files, the environment, where lines go. */
export interface CliIo {
  /** Where npm start keeps seed.json, stack.json and admin-token (none: flags and environment only). */
  dataDir: string | undefined;
  env?: Record<string, string | undefined>;
  /** Receives each output line (default: stdout). */
  out?: (line: string) => void;
}

/** Runs the CLI with `argv` (without node and the script); resolves to the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const out = io.out ?? ((s: string) => process.stdout.write(`${s}\n`));
  const { command, line, args, flags, files } = parseArgs(argv);
  if (flags.help || command === 'help') {
    out(USAGE);
    return 0;
  }
  if (!['commands', 'invoke', 'autocomplete', 'click', 'select', 'submit-modal', 'sweep'].includes(command)) {
    out(`unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  const settings = resolveSettings(flags, io.env ?? process.env, io.dataDir);
  const token = await sessionToken(settings);
  if (['click', 'select', 'submit-modal'].includes(command))
    return followOn(command, args, settings, token, out, files);
  if (command === 'sweep') return sweep(settings, token, out);
  const commands = await listCommands(settings, token);
  if (command === 'commands') {
    if (commands.length === 0) out('no commands of this app can be used here');
    for (const c of commands) out(`${signature(c).padEnd(40)} ${c.description ?? ''}`.trimEnd());
    return 0;
  }
  if (!line) throw new Error(`${command} needs a command line\n\n${USAGE}`);
  let data: Record<string, unknown>;
  if (settings.target !== undefined) {
    const target = commands.find((c) => c.name === line && (c.type === 2 || c.type === 3));
    if (!target) throw new Error(`no user or message command "${line}" here`);
    data = {
      id: target.id,
      name: target.name,
      type: target.type,
      version: target.version,
      target_id: settings.target,
      ...(target.guild_id ? { guild_id: target.guild_id } : {}),
    };
  } else {
    data = { ...parseInvocation(line, commands, { autocomplete: command === 'autocomplete' }) };
  }
  const named = commands.filter((c) => c.name === data.name && (c.type ?? 1) === data.type);
  if (named.length > 1 && !settings.appId) {
    throw new Error(
      `several apps have ${String(data.name)}: choose one with --app (${named.map((c) => c.application_id).join(', ')})`,
    );
  }
  const applicationId = settings.appId ?? named[0]?.application_id;
  const channelId = settings.channelId ?? (await botDmChannel(settings, token));
  const invoked = await callApi(settings.base, 'POST', '/api/v10/interactions?wait=true', {
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
  return report(invoked, settings, out);
}

/**
 * `sweep`: every command of one app (--app, else the demo app; in a guild every app's when
 * neither is known) invoked with generated options; one line per invocation, then the counts.
 */
async function sweep(settings: Settings, token: string, out: (s: string) => void): Promise<number> {
  const appId = settings.appId ?? settings.seedAppId;
  const swept = { ...settings, appId };
  const commands = await listCommands(swept, token);
  if (commands.length === 0) {
    out('no commands of this app can be used here: nothing to sweep');
    return 0;
  }
  const channelId = settings.channelId ?? (await botDmChannel(swept, token));
  out(`sweeping ${commands.length} command(s) as user ${settings.userId} in channel ${channelId}`);
  const entries = await sweepCommands(
    commands,
    {
      base: settings.base,
      token,
      userId: settings.userId,
      guildId: settings.guildId,
      channelId,
      adminToken: settings.adminToken,
    },
    (entry) => out(settings.json ? JSON.stringify(entry) : describeEntry(entry)),
  );
  const { line, failed } = summarize(entries);
  out(line);
  return failed > 0 ? 1 : 0;
}
