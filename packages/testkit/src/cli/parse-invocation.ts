/**
 * Turns what a user would type in the chat client's command bar (`/ping text:hi`,
 * `/settings color set value:"dark blue"`) into the `data` of an invocation
 * (`POST /interactions`, type 2), checked against the command as the server has it.
 * The server validates again: this only builds the body and explains a typo early.
 */

/** Option types (D:interactions/application-commands.mdx). */
export const OPTION = {
  SUB_COMMAND: 1,
  SUB_COMMAND_GROUP: 2,
  STRING: 3,
  INTEGER: 4,
  BOOLEAN: 5,
  USER: 6,
  CHANNEL: 7,
  ROLE: 8,
  MENTIONABLE: 9,
  NUMBER: 10,
  ATTACHMENT: 11,
} as const;

const TYPE_NAMES: Record<number, string> = {
  3: 'string',
  4: 'integer',
  5: 'boolean',
  6: 'user',
  7: 'channel',
  8: 'role',
  9: 'mentionable',
  10: 'number',
  11: 'attachment',
};

/** An option of a command as the server lists it (the fields read here). */
export interface CommandOption {
  name: string;
  type: number;
  required?: boolean;
  options?: CommandOption[];
}

/** A command as the server lists it (the fields read here). */
export interface ListedCommand {
  id: string;
  name: string;
  type?: number;
  version: string;
  application_id?: string;
  guild_id?: string;
  description?: string;
  options?: CommandOption[];
}

/** An option of an invocation's `data`. */
export interface InvocationOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  focused?: boolean;
  options?: InvocationOption[];
}

/** An invocation's `data` (type 2 or 4). */
export interface InvocationData {
  id: string;
  name: string;
  type: number;
  version: string;
  options: InvocationOption[];
  guild_id?: string;
}

/** How a line is read: an autocomplete, and names (`@alice`, `#general`) to read as ids. */
export interface ParseMode {
  /** Build an autocomplete (type 4) invocation. */
  autocomplete?: boolean;
  /**
   * The id a `@name` (user and mentionable options) or `#name` (channel options) stands
   * for; it throws naming those it knows when it knows no such name.
   */
  resolveName?: (kind: 'user' | 'channel', name: string) => string;
}

/**
 * Splits a line into words; double quotes group a value with spaces (`name:"a b"`), and
 * `\"` inside them is a quote.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quoted = false;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted && c === '\\' && line[i + 1] === '"') {
      word += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
      started = true;
    } else if (!quoted && /\s/.test(c)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += c;
      started = true;
    }
  }
  if (quoted) throw new Error('a quote is not closed');
  if (started) words.push(word);
  return words;
}

/**
 * Reads one option value typed as text into the JSON value the client would send.
 * Mentions are accepted the way they are written in chat (`<@id>`, `<#id>`, `<@&id>`).
 */
function readValue(option: CommandOption, text: string, mode: ParseMode): string | number | boolean {
  const fail = (what: string) => new Error(`${option.name}: "${text}" is not ${what}`);
  switch (option.type) {
    case OPTION.STRING:
      return text;
    case OPTION.INTEGER: {
      if (!/^-?\d+$/.test(text)) throw fail('an integer');
      return Number(text);
    }
    case OPTION.NUMBER: {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) throw fail('a number');
      return n;
    }
    case OPTION.BOOLEAN: {
      if (/^(true|yes|1)$/i.test(text)) return true;
      if (/^(false|no|0)$/i.test(text)) return false;
      throw fail('true or false');
    }
    case OPTION.USER:
    case OPTION.CHANNEL:
    case OPTION.ROLE:
    case OPTION.MENTIONABLE: {
      const named = option.type === OPTION.CHANNEL ? /^#(.+)$/.exec(text) : /^@(.+)$/.exec(text);
      if (named && mode.resolveName && option.type !== OPTION.ROLE)
        return mode.resolveName(option.type === OPTION.CHANNEL ? 'channel' : 'user', named[1] as string);
      const id = /^<(?:@!?|#|@&)(\d+)>$/.exec(text)?.[1] ?? text;
      if (!/^\d{1,20}$/.test(id)) throw fail(`a ${TYPE_NAMES[option.type]} id`);
      return id;
    }
    default:
      throw new Error(
        `${option.name}: ${TYPE_NAMES[option.type] ?? `type ${option.type}`} options cannot be typed here`,
      );
  }
}

/**
 * Reads the `name:value` words of one (sub)command into options, in the order the
 * command declares them. An option can be marked as the autocomplete focus with a
 * trailing `?` (`city:Par?`): its value is then sent as typed, as a string.
 */
function readOptions(
  target: { name: string; options?: CommandOption[] },
  words: string[],
  mode: ParseMode & { autocomplete: boolean },
): InvocationOption[] {
  const declared = target.options ?? [];
  const given = new Map<string, { option: CommandOption; text: string }>();
  for (const word of words) {
    const colon = word.indexOf(':');
    if (colon <= 0)
      throw new Error(`"${word}" is not name:value (options of /${target.name}: ${namesOf(declared)})`);
    const name = word.slice(0, colon);
    const option = declared.find((o) => o.name === name);
    if (!option) throw new Error(`/${target.name} has no option "${name}" (it has: ${namesOf(declared)})`);
    if (given.has(name)) throw new Error(`option "${name}" is given twice`);
    given.set(name, { option, text: word.slice(colon + 1) });
  }
  const options: InvocationOption[] = [];
  for (const option of declared) {
    const entry = given.get(option.name);
    if (!entry) {
      if (option.required && !mode.autocomplete)
        throw new Error(`/${target.name} needs option "${option.name}"`);
      continue;
    }
    const focused = mode.autocomplete && entry.text.endsWith('?');
    if (focused) {
      options.push({ name: option.name, type: option.type, value: entry.text.slice(0, -1), focused: true });
    } else {
      options.push({ name: option.name, type: option.type, value: readValue(option, entry.text, mode) });
    }
  }
  return options;
}

function namesOf(options: { name: string }[]): string {
  return options.length ? options.map((o) => o.name).join(', ') : 'none';
}

/**
 * The invocation `data` for `line` among `commands` (CHAT_INPUT commands as the server
 * lists them, each with `id`, `name`, `type`, `version`, `options`). With `autocomplete`,
 * it builds an autocomplete (type 4) invocation: the option marked with a trailing `?` is
 * focused, else the last one given.
 */
export function parseInvocation(
  line: string,
  commands: ListedCommand[],
  mode: ParseMode = {},
): InvocationData {
  const autocomplete = Boolean(mode.autocomplete);
  const reading = { ...mode, autocomplete };
  const words = splitWords(line.trim());
  const first = words[0];
  if (first === undefined || !first.startsWith('/')) throw new Error('a command line starts with /name');
  const name = first.slice(1);
  const command = commands.find((c) => c.name === name && (c.type ?? 1) === 1);
  if (!command) {
    const known = commands.filter((c) => (c.type ?? 1) === 1).map((c) => `/${c.name}`);
    throw new Error(
      `no slash command /${name} here (${known.length ? known.join(', ') : 'none registered'})`,
    );
  }
  let rest = words.slice(1);
  if (autocomplete && !rest.some((word) => word.includes(':') && word.endsWith('?'))) {
    // No option marked: the one typed last has the focus, as in the chat client.
    let last = -1;
    rest.forEach((word, i) => {
      if (word.includes(':')) last = i;
    });
    if (last >= 0) rest = rest.map((word, i) => (i === last ? `${word}?` : word));
  }
  let options: InvocationOption[];
  const subs = (command.options ?? []).filter(
    (o) => o.type === OPTION.SUB_COMMAND || o.type === OPTION.SUB_COMMAND_GROUP,
  );
  if (subs.length > 0) {
    const sub1 = subs.find((o) => o.name === rest[0]);
    if (!sub1) throw new Error(`/${name} needs a subcommand: ${namesOf(subs)}`);
    rest = rest.slice(1);
    if (sub1.type === OPTION.SUB_COMMAND_GROUP) {
      const sub = (sub1.options ?? []).find((o) => o.name === rest[0]);
      if (!sub) throw new Error(`/${name} ${sub1.name} needs a subcommand: ${namesOf(sub1.options ?? [])}`);
      const inner = readOptions(sub, rest.slice(1), reading);
      options = [
        { name: sub1.name, type: sub1.type, options: [{ name: sub.name, type: sub.type, options: inner }] },
      ];
    } else {
      options = [{ name: sub1.name, type: sub1.type, options: readOptions(sub1, rest, reading) }];
    }
  } else {
    options = readOptions(command, rest, reading);
  }
  if (autocomplete && !JSON.stringify(options).includes('"focused":true')) {
    throw new Error('an autocomplete needs an option to complete (city:Par, or city:Par? to choose one)');
  }
  const data: InvocationData = {
    id: command.id,
    name: command.name,
    type: 1,
    version: command.version,
    options,
  };
  if (command.guild_id) data.guild_id = command.guild_id;
  return data;
}
