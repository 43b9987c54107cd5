import { DiscordError, InvalidFormBodyError, type ErrorTree } from '@acs/discord-errors';
import {
  readCommandSpec,
  readInvocationBody,
  type CommandSpec,
  type InvocationBody,
  type InvocationParties,
  type InvocationPlace,
  type JsonRecord,
} from '../../../src/domain/invocation';

// A small world: app APP (its bot user has the app's id) in GUILD, user USER invoking in CHANNEL.
export const APP = '1500000000000000001';
export const GUILD = '1500000000000000002';
export const CHANNEL = '1500000000000000003';
export const USER = '1500000000000000004';
export const COMMAND = '1500000000000000005';
export const VERSION = '1500000000000000006';
export const OTHER_USER = '1500000000000000007';
export const ROLE = '1500000000000000008';
export const TEXT_CHANNEL = '1500000000000000009';
export const VOICE_CHANNEL = '1500000000000000010';
export const DM_CHANNEL = '1500000000000000011';

/** Every permission bit a member of the test guild has in the channel (the owner's). */
export const ALL_PERMISSIONS = ((1n << 51n) - 1n).toString();

/** The invocation body as a client sends it, with `data` merged over a ping invocation. */
export function bodyOf(
  overrides: Record<string, unknown> = {},
  data: Record<string, unknown> = {},
): JsonRecord {
  return {
    type: 2,
    application_id: APP,
    guild_id: GUILD,
    channel_id: CHANNEL,
    ...overrides,
    data: { id: COMMAND, name: 'ping', type: 1, version: VERSION, ...data },
  };
}

/** The body read, as the handler has it. */
export function readBody(
  overrides: Record<string, unknown> = {},
  data: Record<string, unknown> = {},
): InvocationBody {
  return readInvocationBody(JSON.stringify(bodyOf(overrides, data)));
}

/** A stored command as command-registry answers it, read into a spec. */
export function commandOf(
  overrides: Record<string, unknown> = {},
  guildId: string | null = null,
): CommandSpec {
  return readCommandSpec({
    command: {
      id: COMMAND,
      application_id: APP,
      version: VERSION,
      default_member_permissions: null,
      type: 1,
      name: 'ping',
      description: 'Replies with pong',
      dm_permission: true,
      contexts: null,
      integration_types: [0],
      nsfw: false,
      ...overrides,
    },
    guildId,
    namedVersion: VERSION,
  });
}

export const user = (id: string, username = `user${id.slice(-2)}`): JsonRecord => ({
  id,
  username,
  discriminator: '0',
  global_name: null,
  avatar: null,
});

/** oauth's answer: APP installed in GUILD, not by the user, no endpoint. */
export function partiesOf(overrides: Partial<InvocationParties> = {}): InvocationParties {
  return {
    application: { id: APP, name: 'App' },
    applicationFlags: 0,
    interactionsEndpointUrl: null,
    signingKeyPem: '',
    integrationTypes: [0],
    botUser: { ...user(APP, 'App'), bot: true },
    user: user(USER, 'ada'),
    userLocale: 'en-US',
    guildInstalled: true,
    userInstalled: false,
    resolvedUsers: {},
    entitlements: [],
    ...overrides,
  };
}

/** permissions' answer: a guild text channel, the user a member with every permission. */
export function placeOf(overrides: Partial<InvocationPlace> = {}): InvocationPlace {
  return {
    channel: { id: CHANNEL, type: 0, guild_id: GUILD, name: 'general', nsfw: false },
    guild: { id: GUILD, name: 'Guild', features: ['COMMUNITY'], preferred_locale: 'fr', premium_tier: 0 },
    member: {
      roles: [],
      joined_at: '2026-01-01T00:00:00.000000+00:00',
      nick: null,
      permissions: ALL_PERMISSIONS,
    },
    userPermissions: ALL_PERMISSIONS,
    appPermissions: '2048',
    botIsMember: true,
    allowed: true,
    reason: 'administrator',
    resolvedMembers: {},
    resolvedRoles: {},
    resolvedChannels: {},
    recipientIds: [],
    ...overrides,
  };
}

/** A DM place: `recipients` are its members; no guild, no member. */
export function dmPlaceOf(recipients: string[], type = 1): InvocationPlace {
  return placeOf({
    channel: { id: DM_CHANNEL, type, last_message_id: null, flags: 0, recipient_ids: recipients },
    guild: null,
    member: null,
    userPermissions: '2048',
    appPermissions: '2048',
    reason: '',
    recipientIds: recipients,
  });
}

/** The error `run` throws; fails when it throws none. */
export function errorOf(run: () => unknown): DiscordError {
  try {
    run();
  } catch (error) {
    if (error instanceof DiscordError) return error;
    throw error;
  }
  throw new Error('expected a DiscordError');
}

/** The 50035 tree `run` throws. */
export function treeOf(run: () => unknown): ErrorTree {
  const error = errorOf(run);
  expect(error).toBeInstanceOf(InvalidFormBodyError);
  expect(error.toBody()).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
  return error.errors ?? {};
}

/** The leaves recorded exactly at `path` of a tree. */
export function leavesAt(tree: ErrorTree, path: (string | number)[]): { code: string; message: string }[] {
  let node: ErrorTree | undefined = tree;
  for (const segment of path) node = node?.[String(segment)] as ErrorTree | undefined;
  return node?._errors ?? [];
}

/** The one error `run` throws, as `{path, code}`: every leaf of the tree, flattened. */
export function errorsIn(tree: ErrorTree, prefix: string[] = []): { path: string; code: string }[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    key === '_errors'
      ? (value as { code: string }[]).map((leaf) => ({ path: prefix.join('.'), code: leaf.code }))
      : errorsIn(value as ErrorTree, [...prefix, key]),
  );
}
