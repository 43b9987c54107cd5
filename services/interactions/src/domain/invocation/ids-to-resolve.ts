import { isSnowflake } from '@acs/snowflake';
import { CommandType, OptionType } from '../interaction-enums';
import type { CommandSpec, OptionSpec } from './command-spec';
import type { SentCommandData, SentOption } from './read-invocation-body';

/** Ids the peers are asked to resolve, by kind. */
export interface IdsToResolve {
  users: string[];
  roles: string[];
  channels: string[];
}

/** More ids than a valid invocation can name (25 options and a target): the rest are not asked for. */
const MAX_IDS_PER_KIND = 26;

/** An option value as an id, when it can be one. */
function idOf(value: unknown): string | undefined {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  return typeof text === 'string' && isSnowflake(text) ? text : undefined;
}

/** Adds `id` unless the kind is full. */
function add(ids: Set<string>, id: string | undefined): void {
  if (id !== undefined && ids.size < MAX_IDS_PER_KIND) ids.add(id);
}

/**
 * The users an invocation may name, before its command is known (oauth is asked in
 * parallel with command-registry): the values of options the client says are USER or
 * MENTIONABLE, or whose type it does not say, and the target.
 */
export function candidateUserIds(data: SentCommandData): string[] {
  const users = new Set<string>();
  add(users, data.targetId ?? undefined);
  const visit = (options: SentOption[] | null): void => {
    for (const option of options ?? []) {
      const type = option.type;
      if (type === null || type === OptionType.USER || type === OptionType.MENTIONABLE) {
        add(users, idOf(option.value));
      }
      visit(option.options);
    }
  };
  visit(data.options);
  return [...users];
}

/**
 * What permissions is asked to resolve once the command is known: the values of its USER,
 * MENTIONABLE, ROLE and CHANNEL options (found by name along the sent path) and a USER
 * command's target.
 */
export function idsToResolve(data: SentCommandData, command: CommandSpec): IdsToResolve {
  const users = new Set<string>();
  const roles = new Set<string>();
  const channels = new Set<string>();
  if (command.type === CommandType.USER) add(users, data.targetId ?? undefined);
  const visit = (options: SentOption[] | null, specs: OptionSpec[]): void => {
    for (const option of options ?? []) {
      const spec = specs.find((s) => s.name === option.name);
      if (!spec) continue;
      const id = idOf(option.value);
      if (spec.type === OptionType.USER) add(users, id);
      else if (spec.type === OptionType.ROLE) add(roles, id);
      else if (spec.type === OptionType.CHANNEL) add(channels, id);
      else if (spec.type === OptionType.MENTIONABLE) {
        add(users, id);
        add(roles, id);
      }
      visit(option.options, spec.options);
    }
  };
  if (command.type === CommandType.CHAT_INPUT) visit(data.options, command.options);
  return { users: [...users], roles: [...roles], channels: [...channels] };
}
