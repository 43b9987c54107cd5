import { isSnowflake } from '@acs/snowflake';
import { isJsonObject, type ErrorPath, type FormErrors, type JsonObject } from '@acs/validation';
import { ComponentType } from '../messages/components/component-types';
import type { JsonRecord } from '../invocation/invocation-facts';
import type { ResolvedData } from '../invocation/validate-command-data';
import { FollowOnErrorCode as ErrorCode } from './follow-on-errors';

/** The ids a select's values name, by the kind peers resolve. */
export interface SelectIds {
  users: string[];
  roles: string[];
  channels: string[];
}

/** What peers found of those ids. */
export interface SelectLookups {
  users: Record<string, JsonRecord>;
  members: Record<string, JsonRecord>;
  roles: Record<string, JsonRecord>;
  channels: Record<string, JsonRecord>;
}

/** No ids at all. */
export function noIds(): SelectIds {
  return { users: [], roles: [], channels: [] };
}

/**
 * The values picked in a select (or a checkbox group), checked against the stored
 * component: strings, each once, as many as `min_values`-`max_values` allow (an optional
 * modal select may be left empty), a string select's among its options, the others'
 * snowflakes. Adds the ids to resolve to `ids`; records errors at `path`.
 */
export function readSelectValues(
  component: JsonObject,
  raw: unknown,
  ids: SelectIds,
  errors: FormErrors,
  path: ErrorPath,
): string[] | undefined {
  if (!Array.isArray(raw)) {
    errors.add(path, ErrorCode.VALUES_INVALID, 'Select values are a list of strings');
    return undefined;
  }
  const min = typeof component.min_values === 'number' ? component.min_values : 1;
  const max = typeof component.max_values === 'number' ? component.max_values : 1;
  const optional = component.required === false && raw.length === 0;
  if (!optional && (raw.length < min || raw.length > max)) {
    errors.add(path, ErrorCode.VALUES_INVALID, `Pick between ${min} and ${max} values`);
    return undefined;
  }
  const before = errors.count;
  const options = Array.isArray(component.options)
    ? new Set(component.options.map((option) => (isJsonObject(option) ? option.value : undefined)))
    : undefined;
  const seen = new Set<string>();
  const values = raw.map((value, index) => {
    const at = [...path, index];
    const ok =
      typeof value === 'string' && !seen.has(value) && (options ? options.has(value) : isSnowflake(value));
    if (!ok) {
      errors.add(
        at,
        ErrorCode.VALUES_INVALID,
        options ? 'Not an option of this select' : 'Not an id this select offers',
      );
      return '';
    }
    seen.add(value);
    return value;
  });
  if (errors.count !== before) return undefined;
  const type = component.type;
  if (type === ComponentType.USER_SELECT || type === ComponentType.MENTIONABLE_SELECT)
    ids.users.push(...values);
  if (type === ComponentType.ROLE_SELECT || type === ComponentType.MENTIONABLE_SELECT)
    ids.roles.push(...values);
  if (type === ComponentType.CHANNEL_SELECT) ids.channels.push(...values);
  return values;
}

/**
 * `resolved` for values of a user, role, mentionable or channel select (A2: a member
 * implies its user), into `resolved`; each value must name something of its kind, and a
 * channel one of the select's `channel_types` when it has them
 * (INTERACTION_COMPONENT_VALUES_INVALID at its index otherwise).
 */
export function resolveSelectValues(
  select: JsonObject,
  values: readonly string[],
  lookups: SelectLookups,
  resolved: ResolvedData,
  errors: FormErrors,
  path: ErrorPath,
): void {
  const type = select.type;
  const channelTypes = Array.isArray(select.channel_types) ? (select.channel_types as unknown[]) : undefined;
  values.forEach((id, index) => {
    const user = lookups.users[id];
    const role = lookups.roles[id];
    const channel = lookups.channels[id];
    let found = false;
    if ((type === ComponentType.USER_SELECT || type === ComponentType.MENTIONABLE_SELECT) && user) {
      (resolved.users ??= {})[id] = user;
      const member = lookups.members[id];
      if (member) (resolved.members ??= {})[id] = member;
      found = true;
    }
    if ((type === ComponentType.ROLE_SELECT || type === ComponentType.MENTIONABLE_SELECT) && role) {
      (resolved.roles ??= {})[id] = role;
      found = true;
    }
    if (
      type === ComponentType.CHANNEL_SELECT &&
      channel &&
      (!channelTypes || channelTypes.includes(channel.type))
    ) {
      (resolved.channels ??= {})[id] = channel;
      found = true;
    }
    if (!found && type !== ComponentType.STRING_SELECT) {
      errors.add([...path, index], ErrorCode.VALUES_INVALID, 'Unknown id for this select');
    }
  });
}
