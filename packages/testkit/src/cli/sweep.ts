/**
 * `sweep`: invokes every command an app registered, as a user of the chat client would,
 * with generated valid options (each subcommand; required options alone, then every
 * option; each choice; the bounds of min/max and min_length/max_length), asks every
 * autocomplete option for its choices, runs USER and MESSAGE commands on a target, and
 * reports each one that failed, timed out or was refused, or whose answer ACS refused
 * (a callback answered 400 / 50035, even one the app then replaced), with the reason.
 */
import { callApi, describeError } from '../http/call-api';
import { runInteraction } from '../world/run-interaction';
import type { InteractionResult, TimelineEntry } from '../world/types';
import { UserSession } from '../world/user-session';
import { OPTION, type CommandOption, type InvocationOption, type ListedCommand } from './parse-invocation';

/** A command's option with the fields a generator reads (D:interactions/application-commands.mdx). */
interface SweptOption extends CommandOption {
  choices?: { name: string; value: string | number }[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
  channel_types?: number[];
  autocomplete?: boolean;
}

/** Where the sweep happens and who invokes. */
export interface SweepPlace {
  base: string;
  /** The user's session token. */
  token: string;
  userId: string;
  /** The guild (none: a DM with the app's bot). */
  guildId: string | undefined;
  channelId: string;
  /** How long to wait for a deferred reply to be filled, and for the interaction to settle (ms). */
  finalTimeoutMs?: number;
  quietMs?: number;
  /**
   * The admin token: each interaction's timeline entry then tells whether ACS refused an
   * answer of the app's (which it may have replaced with one that was taken).
   */
  adminToken?: string;
}

/** What became of one invocation. */
export type SweepVerdict = 'ok' | 'failed' | 'timed out' | 'refused' | 'answer refused' | 'skipped';

export interface SweepEntry {
  /** The invocation as typed: `/settings color set value:dark`, `autocomplete /weather city:?`. */
  label: string;
  verdict: SweepVerdict;
  /** Why (for every verdict but ok), or what came back (ok). */
  detail: string;
}

/** Guild text channel: the channel the sweep runs in, unless an option asks for other types. */
const GUILD_TEXT = 0;
/** Variants of one (sub)command at most (each choice is tried once, up to this many). */
const MAX_VARIANTS = 10;

/** A (sub)command that can be invoked: the command, the path of subcommand names, and its options. */
interface Leaf {
  command: ListedCommand;
  path: SweptOption[];
  options: SweptOption[];
}

function leavesOf(command: ListedCommand): Leaf[] {
  const options = (command.options ?? []) as SweptOption[];
  const subs = options.filter((o) => o.type === OPTION.SUB_COMMAND || o.type === OPTION.SUB_COMMAND_GROUP);
  if (subs.length === 0) return [{ command, path: [], options }];
  return subs.flatMap((sub) =>
    sub.type === OPTION.SUB_COMMAND
      ? [{ command, path: [sub], options: (sub.options ?? []) as SweptOption[] }]
      : ((sub.options ?? []) as SweptOption[]).map((inner) => ({
          command,
          path: [sub, inner],
          options: (inner.options ?? []) as SweptOption[],
        })),
  );
}

/** Why an option cannot be given a generated value, or undefined when it can. */
function unsupported(option: SweptOption): string | undefined {
  if (option.type === OPTION.ATTACHMENT) return `option ${option.name} is an attachment (not generated)`;
  if (option.type === OPTION.CHANNEL && option.channel_types && !option.channel_types.includes(GUILD_TEXT))
    return `option ${option.name} takes channels of types ${option.channel_types.join(', ')}, and the sweep has a text channel`;
  return undefined;
}

/**
 * A valid value of `option` for variant `n`: choice `n` (cycling), else the lower bound for
 * an even `n` and the upper bound for an odd one.
 */
export function generateValue(
  option: SweptOption,
  n: number,
  place: { userId: string; channelId: string; guildId: string | undefined },
): string | number | boolean {
  if (option.choices && option.choices.length > 0)
    return (option.choices[n % option.choices.length] as { value: string | number }).value;
  const high = n % 2 === 1;
  switch (option.type) {
    case OPTION.STRING: {
      const min = Math.max(1, option.min_length ?? 1);
      const max = Math.max(min, option.max_length ?? 12);
      const length = high ? max : min;
      return 'sweep'.repeat(Math.ceil(length / 5)).slice(0, length);
    }
    case OPTION.INTEGER:
    case OPTION.NUMBER: {
      const integer = option.type === OPTION.INTEGER;
      const lowest = option.min_value ?? (option.max_value !== undefined ? Math.min(1, option.max_value) : 1);
      const highest = option.max_value ?? Math.max(lowest, 10);
      const low = integer ? Math.ceil(lowest) : lowest;
      const top = integer ? Math.floor(highest) : highest;
      return high ? top : low;
    }
    case OPTION.BOOLEAN:
      return !high;
    case OPTION.USER:
    case OPTION.MENTIONABLE:
      return place.userId;
    case OPTION.CHANNEL:
      return place.channelId;
    case OPTION.ROLE:
      // @everyone: the role whose id is the guild's.
      return place.guildId ?? place.userId;
    default:
      throw new Error(`option ${option.name} of type ${option.type} is not generated`);
  }
}

/** `name:value` as the command bar shows it. */
function typed(option: { name: string; value?: unknown; focused?: boolean }): string {
  if (option.focused) return `${option.name}:${String(option.value ?? '')}?`;
  const text = String(option.value);
  return `${option.name}:${/[\s"]/.test(text) || text === '' ? JSON.stringify(text) : text}`;
}

/** The invocations of one leaf: variants of its options, then one autocomplete per autocomplete option. */
function plan(
  leaf: Leaf,
  place: SweepPlace,
): { label: string; type: 2 | 4; options?: InvocationOption[]; skip?: string }[] {
  const head = `/${[leaf.command.name, ...leaf.path.map((p) => p.name)].join(' ')}`;
  const required = leaf.options.filter((o) => o.required);
  const optional = leaf.options.filter((o) => !o.required);
  const blocked = required.map(unsupported).find(Boolean);
  if (blocked) return [{ label: head, type: 2, skip: blocked }];
  const usable = optional.filter((o) => !unsupported(o));
  // Choice k of a required option in variant k; of an optional one in variant k + 1 (variant 0 has none).
  const choicesOf = (options: SweptOption[]) => Math.max(0, ...options.map((o) => o.choices?.length ?? 0));
  const variants = Math.min(
    MAX_VARIANTS,
    Math.max(usable.length > 0 ? 3 : 1, choicesOf(required), usable.length > 0 ? choicesOf(usable) + 1 : 0),
  );
  const wrap = (options: InvocationOption[]): InvocationOption[] => {
    const [first, second] = leaf.path;
    if (!first) return options;
    if (!second) return [{ name: first.name, type: first.type, options }];
    return [
      { name: first.name, type: first.type, options: [{ name: second.name, type: second.type, options }] },
    ];
  };
  const planned: ReturnType<typeof plan> = [];
  const seen = new Set<string>();
  for (let n = 0; n < variants; n++) {
    // Variant 0: the required options only; then every option, at each bound and choice.
    const given = n === 0 ? required : [...required, ...usable];
    const options = given.map((o) => ({
      name: o.name,
      type: o.type,
      value: generateValue(o, o.required || !o.choices ? n : n - 1, place),
    }));
    const label = [head, ...options.map(typed)].join(' ');
    if (seen.has(label)) continue;
    seen.add(label);
    planned.push({ label, type: 2, options: wrap(options) });
  }
  for (const focus of leaf.options.filter((o) => o.autocomplete)) {
    const others = required.filter((o) => o.name !== focus.name && !o.autocomplete);
    const options: InvocationOption[] = [
      ...others.map((o) => ({ name: o.name, type: o.type, value: generateValue(o, 0, place) })),
      { name: focus.name, type: focus.type, value: '', focused: true },
    ];
    planned.push({
      label: `autocomplete ${[head, ...options.map(typed)].join(' ')}`,
      type: 4,
      options: wrap(options),
    });
  }
  return planned;
}

/** Matches the server's reason for an answer it refused (the timeline's words). */
const ANSWER_REFUSED = /its callback was refused: |the endpoint's answer was refused: /;

/** The verdict on one result, with its timeline entry when the sweep may read it. */
function judge(
  result: InteractionResult,
  type: 2 | 4,
  entry: TimelineEntry | undefined,
): { verdict: SweepVerdict; detail: string } {
  const refusal = entry?.refusals.at(-1);
  if (result.ok && refusal) {
    return {
      verdict: 'answer refused',
      detail: `the app answered in the end, but ACS refused an answer of its first: ${describeRefusal(refusal)}`,
    };
  }
  if (result.ok) {
    const what =
      type === 4
        ? `${result.choices?.length ?? 0} choice(s)`
        : result.modal
          ? `opened modal "${result.modal.title}"`
          : result.response
            ? `answered: ${JSON.stringify(result.response.content ?? '').slice(0, 80)}`
            : result.followups.length
              ? `${result.followups.length} follow-up(s)`
              : 'acknowledged';
    return { verdict: 'ok', detail: what };
  }
  const error = result.error ?? 'no answer';
  if (result.interaction === null && !result.acknowledged) return { verdict: 'refused', detail: error };
  if (ANSWER_REFUSED.test(error)) return { verdict: 'answer refused', detail: error };
  if (refusal) {
    return {
      verdict: 'answer refused',
      detail: `${error}\nACS refused its answer: ${describeRefusal(refusal)}`,
    };
  }
  if (/reason_code 2|did not fill it in/.test(error)) return { verdict: 'timed out', detail: error };
  return { verdict: 'failed', detail: error };
}

/**
 * Invokes every command of `commands` (one app's, as the command index lists them) in
 * `place`, on the user's own gateway session; `onEntry` hears each outcome as it comes.
 */
export async function sweepCommands(
  commands: ListedCommand[],
  place: SweepPlace,
  onEntry: (entry: SweepEntry) => void = () => undefined,
): Promise<SweepEntry[]> {
  const entries: SweepEntry[] = [];
  const record = (entry: SweepEntry) => {
    entries.push(entry);
    onEntry(entry);
  };
  const gateway = await callApi(place.base, 'GET', '/api/v10/gateway');
  if (gateway.status !== 200) throw new Error(`GET /gateway failed:\n${describeError(gateway)}`);
  const session = await UserSession.open(String(gateway.body.url), place.token);
  let messageTarget: string | undefined;
  try {
    const run = async (label: string, type: 2 | 4, command: ListedCommand, data: Record<string, unknown>) => {
      const result = await runInteraction(
        {
          base: place.base,
          token: place.token,
          session,
          quietMs: place.quietMs ?? 300,
          finalTimeoutMs: place.finalTimeoutMs ?? 10_000,
        },
        {
          type,
          application_id: command.application_id,
          ...(place.guildId ? { guild_id: place.guildId } : {}),
          channel_id: place.channelId,
          data: {
            id: command.id,
            name: command.name,
            version: command.version,
            ...(command.guild_id ? { guild_id: command.guild_id } : {}),
            ...data,
          },
        },
      );
      const entry = place.adminToken ? await timelineEntryOf(place, result) : undefined;
      record({ label, ...judge(result, type, entry) });
    };
    for (const command of commands) {
      const kind = command.type ?? 1;
      if (kind === 1) {
        for (const leaf of leavesOf(command)) {
          for (const step of plan(leaf, place)) {
            if (step.skip) record({ label: step.label, verdict: 'skipped', detail: step.skip });
            else await run(step.label, step.type, command, { type: 1, options: step.options });
          }
        }
      } else if (kind === 2) {
        await run(`user command "${command.name}" on user ${place.userId}`, 2, command, {
          type: 2,
          target_id: place.userId,
        });
      } else if (kind === 3) {
        messageTarget ??= await aMessage(place);
        await run(`message command "${command.name}" on message ${messageTarget}`, 2, command, {
          type: 3,
          target_id: messageTarget,
        });
      } else {
        record({
          label: `${command.name} (type ${kind})`,
          verdict: 'skipped',
          detail: 'an entry point command launches an Activity: not swept',
        });
      }
    }
  } finally {
    session.close();
  }
  return entries;
}

/** The interaction's timeline entry (undefined when it has none, or it cannot be read). */
async function timelineEntryOf(
  place: SweepPlace,
  result: InteractionResult,
): Promise<TimelineEntry | undefined> {
  const interaction = result.interaction;
  if (!interaction?.id || !interaction.application_id) return undefined;
  const answer = await callApi(
    place.base,
    'GET',
    `/admin/applications/${interaction.application_id}/interactions/${interaction.id}`,
    { token: `Admin ${place.adminToken}` },
  );
  return answer.status === 200 ? (answer.body as TimelineEntry) : undefined;
}

/** A refused callback as the timeline reason says it: `400 50035 Invalid Form Body: data.embeds.0.title: …`. */
function describeRefusal(refusal: { status: number; body: unknown }): string {
  const body = (refusal.body ?? {}) as { code?: unknown; message?: unknown; errors?: unknown };
  const head = [refusal.status, body.code, body.message].filter((part) => part !== undefined).join(' ');
  const leaves: string[] = [];
  const walk = (node: unknown, at: string[]) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '_errors' && Array.isArray(value)) {
        for (const e of value as { code: string; message: string }[])
          leaves.push(`${at.join('.') || '(body)'}: ${e.code} (${e.message})`);
      } else walk(value, [...at, key]);
    }
  };
  walk(body.errors, []);
  return leaves.length > 0 ? `${head}: ${leaves.join('; ')}` : head;
}

/** A message of the channel for MESSAGE commands: the newest, else one the user posts. */
async function aMessage(place: SweepPlace): Promise<string> {
  const listed = await callApi(place.base, 'GET', `/api/v10/channels/${place.channelId}/messages?limit=1`, {
    token: place.token,
  });
  if (listed.status === 200 && Array.isArray(listed.body) && listed.body[0]) return String(listed.body[0].id);
  const posted = await callApi(place.base, 'POST', `/api/v10/channels/${place.channelId}/messages`, {
    token: place.token,
    body: { content: 'a message for the sweep’s MESSAGE commands' },
  });
  if (posted.status !== 200)
    throw new Error(`could not post a message for the MESSAGE commands:\n${describeError(posted)}`);
  return String(posted.body.id);
}

const MARKS: Record<SweepVerdict, string> = {
  ok: '✓',
  failed: '✗',
  'timed out': '✗',
  refused: '✗',
  'answer refused': '✗',
  skipped: '↷',
};

/** One entry as a report line (and its reason's further lines). */
export function describeEntry(entry: SweepEntry): string {
  const [first = '', ...rest] = entry.detail.split('\n');
  const head =
    entry.verdict === 'ok'
      ? `${MARKS.ok} ${entry.label} — ${first}`
      : `${MARKS[entry.verdict]} ${entry.label} — ${entry.verdict}: ${first}`;
  return [head, ...rest.map((line) => `    ${line}`)].join('\n');
}

/** The closing line: counts per verdict. */
export function summarize(entries: SweepEntry[]): { line: string; failed: number } {
  const count = (verdict: SweepVerdict) => entries.filter((e) => e.verdict === verdict).length;
  const failed = count('failed') + count('timed out') + count('refused') + count('answer refused');
  return {
    line:
      `${entries.length} invocation(s): ${count('ok')} ok, ${count('failed')} failed, ${count('timed out')} timed out, ` +
      `${count('refused')} refused, ${count('answer refused')} answer refused, ${count('skipped')} skipped`,
    failed,
  };
}
