import type { InvocableCommand, JsonRecord } from './invocation-facts';

/** A choice of an option, as the command declares it. */
export interface ChoiceSpec {
  name: string;
  value: string | number;
}

/** An option of a command, as far as an invocation is judged against it. */
export interface OptionSpec {
  type: number;
  /** The default name: what the app receives, never a localized one. */
  name: string;
  required: boolean;
  autocomplete: boolean;
  choices: ChoiceSpec[] | null;
  /** Subcommands of a group, options of a subcommand. */
  options: OptionSpec[];
  channelTypes: number[] | null;
  minValue: number | null;
  maxValue: number | null;
  minLength: number | null;
  maxLength: number | null;
}

/** The stored command an invocation names, as far as an invocation is judged against it. */
export interface CommandSpec {
  id: string;
  applicationId: string;
  /** Null for a global command. */
  guildId: string | null;
  version: string;
  namedVersion: string;
  type: number;
  /** The default name. */
  name: string;
  options: OptionSpec[];
  /** Null: the command sets none (see allowedContextsOf). */
  contexts: number[] | null;
  /** Null: the command sets none (guild commands). */
  integrationTypes: number[] | null;
  dmPermission: boolean;
  nsfw: boolean;
  /** PRIMARY_ENTRY_POINT only: 1 APP_HANDLER, 2 DISCORD_LAUNCH_ACTIVITY. */
  handler: number | null;
  defaultMemberPermissions: string | null;
}

const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const number = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const numbers = (value: unknown): number[] | null =>
  Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : null;
const records = (value: unknown): JsonRecord[] =>
  Array.isArray(value) ? value.filter((v): v is JsonRecord => typeof v === 'object' && v !== null) : [];

function readOptionSpec(option: JsonRecord): OptionSpec {
  const choices = Array.isArray(option.choices)
    ? records(option.choices).map((c) => ({
        name: text(c.name),
        value: typeof c.value === 'number' ? c.value : text(c.value),
      }))
    : null;
  return {
    type: number(option.type) ?? 0,
    name: text(option.name),
    required: option.required === true,
    autocomplete: option.autocomplete === true,
    choices,
    options: records(option.options).map(readOptionSpec),
    channelTypes: numbers(option.channel_types),
    minValue: number(option.min_value),
    maxValue: number(option.max_value),
    minLength: number(option.min_length),
    maxLength: number(option.max_length),
  };
}

/** The command as command-registry answered it (GET's shape), read into what an invocation checks. */
export function readCommandSpec(found: InvocableCommand): CommandSpec {
  const { command } = found;
  return {
    id: text(command.id),
    applicationId: text(command.application_id),
    guildId: found.guildId,
    version: text(command.version),
    namedVersion: found.namedVersion,
    type: number(command.type) ?? 1,
    name: text(command.name),
    options: records(command.options).map(readOptionSpec),
    contexts: numbers(command.contexts),
    integrationTypes: numbers(command.integration_types),
    dmPermission: command.dm_permission !== false,
    nsfw: command.nsfw === true,
    handler: number(command.handler),
    defaultMemberPermissions:
      typeof command.default_member_permissions === 'string' ? command.default_member_permissions : null,
  };
}
