// Who a message's content pings (D:resources/message.mdx §Allowed Mentions Object). The body
// was checked by checkAllowedMentions already: this reads what it asks for.
import { isSnowflake } from '@acs/snowflake';
import { isJsonObject } from '@acs/validation';
import { MAX_MENTIONED_USERS } from '../messages/message-limits';

/** What `allowed_mentions` lets a message ping. */
export interface MentionPolicy {
  /** Every `<@id>` of the content (parse "users"), or only these ids. */
  users: 'all' | ReadonlySet<string>;
  /** Every `<@&id>` of the content (parse "roles"), or only these ids. */
  roles: 'all' | ReadonlySet<string>;
  /** `@everyone` and `@here` (parse "everyone"). */
  everyone: boolean;
  /** Whether a reply pings the replied message's author. */
  repliedUser: boolean;
}

/**
 * The policy of a body's (already checked) `allowed_mentions`. Absent, a normal message
 * parses users, roles and everyone and a reply pings its target's author (D §Allowed
 * Mentions: "all mentions in the content are parsed"; replied_user is [Inf] true then, as
 * the chat client pings by default); present, only what it names, and `replied_user`
 * defaults to false.
 */
export function readMentionPolicy(raw: unknown): MentionPolicy {
  if (!isJsonObject(raw)) return { users: 'all', roles: 'all', everyone: true, repliedUser: true };
  const parse = Array.isArray(raw.parse) ? raw.parse : [];
  const listed = Array.isArray(raw.users) ? raw.users.map(String) : [];
  const listedRoles = Array.isArray(raw.roles) ? raw.roles.map(String) : [];
  return {
    users: parse.includes('users') ? 'all' : new Set(listed),
    roles: parse.includes('roles') ? 'all' : new Set(listedRoles),
    everyone: parse.includes('everyone'),
    repliedUser: raw.replied_user === true,
  };
}

/** A user mention in content: `<@id>` or the legacy nickname form `<@!id>`. */
const USER_MENTION = /<@!?(\d{1,20})>/g;

/** The ids of the users `content` mentions that `policy` lets it ping, in order, each once (at most 100). */
export function mentionedUserIds(content: string, policy: MentionPolicy): string[] {
  const ids: string[] = [];
  for (const match of content.matchAll(USER_MENTION)) {
    const id = match[1] ?? '';
    // `<@99999999999999999999>` names no one: an id past 2^63 - 1 is no user's.
    if (!isSnowflake(id) || ids.includes(id) || (policy.users !== 'all' && !policy.users.has(id))) continue;
    ids.push(id);
    if (ids.length === MAX_MENTIONED_USERS) break;
  }
  return ids;
}

/** A role mention in content: `<@&id>`. */
const ROLE_MENTION = /<@&(\d{1,20})>/g;

/** The ids of the roles `content` mentions that `policy` lets it ping, in order, each once (at most 100). */
export function mentionedRoleIds(content: string, policy: MentionPolicy): string[] {
  const ids: string[] = [];
  for (const match of content.matchAll(ROLE_MENTION)) {
    const id = match[1] ?? '';
    if (!isSnowflake(id) || ids.includes(id) || (policy.roles !== 'all' && !policy.roles.has(id))) continue;
    ids.push(id);
    if (ids.length === MAX_MENTIONED_USERS) break;
  }
  return ids;
}

/** Whether `content` pings everyone (`@everyone` or `@here`) under `policy`. */
export function mentionsEveryone(content: string, policy: MentionPolicy): boolean {
  return policy.everyone && /@(everyone|here)/.test(content);
}
