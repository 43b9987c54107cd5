import { FormErrors, addRequired } from '@acs/validation';
import { CommandType } from '../interaction-enums';
import type { CommandSpec } from './command-spec';
import type { JsonRecord } from './invocation-facts';
import { InvocationErrorCode } from './invocation-errors';
import type { SentCommandData } from './read-invocation-body';
import { validateOptions, type OptionLookups, type ReferencedIds, type WireOption } from './validate-options';

/** `data.resolved` (A2): maps from id to object; only the kinds that name something. */
export interface ResolvedData {
  users?: Record<string, JsonRecord>;
  members?: Record<string, JsonRecord>;
  roles?: Record<string, JsonRecord>;
  channels?: Record<string, JsonRecord>;
  messages?: Record<string, JsonRecord>;
}

/** The application command `data` the application receives (A2). */
export interface CommandData {
  id: string;
  name: string;
  type: number;
  resolved?: ResolvedData;
  options?: WireOption[];
  guild_id?: string;
  target_id?: string;
}

/** What the target of a context-menu command may be. */
export interface TargetLookups extends OptionLookups {
  /** The message a MESSAGE command targets, when it is one this channel holds and the user sees. */
  targetMessage: JsonRecord | null;
  /** Whether the invocation happens in a guild (a USER command's target must be a member there). */
  inGuild: boolean;
}

/**
 * Judges what the invocation names beyond the command: a CHAT_INPUT command's options
 * (validateOptions) and no target; a USER or MESSAGE command's `target_id` (a user, a
 * member in a guild; a message of this channel) and no options; an entry point neither.
 * Builds the `data` the application receives, with default names and `resolved`.
 */
export function validateCommandData(
  interactionType: number,
  sent: SentCommandData,
  command: CommandSpec,
  lookups: TargetLookups,
): CommandData {
  const errors = new FormErrors();
  const isContextMenu = command.type === CommandType.USER || command.type === CommandType.MESSAGE;
  if (command.type !== CommandType.CHAT_INPUT && sent.options !== null && sent.options.length > 0) {
    errors.add(
      ['data', 'options'],
      InvocationErrorCode.OPTION_INVALID,
      'Only chat input commands take options',
    );
  }
  if (!isContextMenu && sent.targetId !== null) {
    errors.add(
      ['data', 'target_id'],
      InvocationErrorCode.INVALID,
      'Only user and message commands have a target',
    );
  }
  if (isContextMenu && sent.targetId === null) addRequired(errors, ['data', 'target_id']);
  errors.throwIfAny();

  const data: CommandData = { id: command.id, name: command.name, type: command.type };
  let resolved: ResolvedData = {};
  if (command.type === CommandType.CHAT_INPUT) {
    const validated = validateOptions(interactionType, sent.options, command.options, lookups);
    resolved = resolvedOf(validated.referenced, lookups);
    if (validated.options !== undefined) data.options = validated.options;
  } else if (isContextMenu) {
    resolved = resolveTarget(command.type, sent.targetId as string, lookups);
  }
  if (Object.keys(resolved).length > 0) data.resolved = resolved;
  if (command.guildId !== null) data.guild_id = command.guildId;
  if (isContextMenu) data.target_id = sent.targetId as string;
  return data;
}

/** A USER command's target (a user; a member in a guild) or a MESSAGE command's (the message). */
function resolveTarget(type: number, targetId: string, lookups: TargetLookups): ResolvedData {
  const errors = new FormErrors();
  const path = ['data', 'target_id'];
  if (type === CommandType.MESSAGE) {
    if (lookups.targetMessage === null) errors.add(path, InvocationErrorCode.INVALID, 'Unknown message');
    errors.throwIfAny();
    return { messages: { [targetId]: lookups.targetMessage as JsonRecord } };
  }
  const user = lookups.users[targetId];
  const member = lookups.members[targetId];
  if (!user) errors.add(path, InvocationErrorCode.INVALID, 'Unknown user');
  else if (lookups.inGuild && !member) errors.add(path, InvocationErrorCode.INVALID, 'Unknown member');
  errors.throwIfAny();
  return {
    users: { [targetId]: user as JsonRecord },
    ...(member ? { members: { [targetId]: member } } : {}),
  };
}

/** `resolved` for the ids the options name: a member implies its user (A2). */
function resolvedOf(referenced: ReferencedIds, lookups: OptionLookups): ResolvedData {
  const pick = (ids: string[], from: Record<string, JsonRecord>) =>
    Object.fromEntries(ids.flatMap((id) => (from[id] ? [[id, from[id]]] : [])));
  const resolved: ResolvedData = {};
  const users = pick(referenced.users, lookups.users);
  const members = pick(referenced.users, lookups.members);
  const roles = pick(referenced.roles, lookups.roles);
  const channels = pick(referenced.channels, lookups.channels);
  if (Object.keys(users).length > 0) resolved.users = users;
  if (Object.keys(members).length > 0) resolved.members = members;
  if (Object.keys(roles).length > 0) resolved.roles = roles;
  if (Object.keys(channels).length > 0) resolved.channels = channels;
  return resolved;
}
