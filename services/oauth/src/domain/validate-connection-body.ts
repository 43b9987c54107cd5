import { FormErrors } from '@acs/validation';
import {
  addChoicesError,
  addRequired,
  checkLength,
  getField,
  isAbsent,
  readBoolean,
  readInteger,
  readString,
  type JsonObject,
} from './read-value';

/** Connection services (D:resources/user.mdx §Services; OAS `ConnectedAccountProviders`). */
export const CONNECTION_TYPES = [
  'amazon-music',
  'battlenet',
  'bluesky',
  'bungie',
  'crunchyroll',
  'domain',
  'ebay',
  'epicgames',
  'facebook',
  'github',
  'instagram',
  'leagueoflegends',
  'mastodon',
  'paypal',
  'playstation',
  'reddit',
  'riotgames',
  'roblox',
  'skype',
  'spotify',
  'steam',
  'tiktok',
  'twitch',
  'twitter',
  'xbox',
  'youtube',
] as const;

/** A connection as `POST /admin/users/{id}/connections` creates it. */
export interface NewConnection {
  type: string;
  accountId: string;
  name: string;
  verified: boolean;
  friendSync: boolean;
  showActivity: boolean;
  twoWayLink: boolean;
  visibility: number;
  revoked: boolean;
}

const MAX_CONNECTION_FIELD_LENGTH = 100;

/** Validates a connection body: `type`, `id`, `name`, and optional flags; 400 / 50035 otherwise. */
export function validateConnectionBody(body: JsonObject): NewConnection {
  const errors = new FormErrors();
  const text = (key: string): string => {
    const value = getField(body, key);
    if (isAbsent(value)) {
      addRequired(errors, [key]);
      return '';
    }
    const read = readString(value, errors, [key]);
    return read !== undefined && checkLength(read, 1, MAX_CONNECTION_FIELD_LENGTH, errors, [key]) ? read : '';
  };
  const flag = (key: string, fallback: boolean): boolean => {
    const value = getField(body, key);
    return isAbsent(value) ? fallback : (readBoolean(value, errors, [key]) ?? fallback);
  };
  const type = text('type');
  if (type !== '' && !(CONNECTION_TYPES as readonly string[]).includes(type)) {
    addChoicesError(CONNECTION_TYPES, errors, ['type']);
  }
  const connection: NewConnection = {
    type,
    accountId: text('id'),
    name: text('name'),
    verified: flag('verified', true),
    friendSync: flag('friend_sync', false),
    showActivity: flag('show_activity', true),
    twoWayLink: flag('two_way_link', false),
    visibility: 1,
    revoked: flag('revoked', false),
  };
  const visibility = getField(body, 'visibility');
  if (!isAbsent(visibility)) {
    const value = readInteger(visibility, errors, ['visibility']);
    if (value === 0 || value === 1) connection.visibility = value;
    else if (value !== undefined) addChoicesError([0, 1], errors, ['visibility']);
  }
  errors.throwIfAny();
  return connection;
}

/**
 * Connection types `GET /users/@me/connections` no longer returns: Riot Games and League of
 * Legends, moved to the Social SDK's application identities (D:change-log.mdx, July 7, 2026:
 * new Riot Games connections at once, legacy ones of both from July 10, 2026, with no
 * replacement). They can still be created (the admin API stands for the client linking an
 * account); they are only left out of the list.
 */
export const UNLISTED_CONNECTION_TYPES: readonly string[] = ['riotgames', 'leagueoflegends'];

/** Whether `GET /users/@me/connections` shows a connection of this type. */
export function isListedConnection(connection: { type: string }): boolean {
  return !UNLISTED_CONNECTION_TYPES.includes(connection.type);
}

/** A connection as `GET /users/@me/connections` shows it (OAS `ConnectedAccountResponse`). */
export function renderConnection(connection: NewConnection): Record<string, unknown> {
  return {
    id: connection.accountId,
    name: connection.name,
    type: connection.type,
    friend_sync: connection.friendSync,
    integrations: [],
    show_activity: connection.showActivity,
    two_way_link: connection.twoWayLink,
    verified: connection.verified,
    visibility: connection.visibility,
    ...(connection.revoked ? { revoked: true } : {}),
  };
}
