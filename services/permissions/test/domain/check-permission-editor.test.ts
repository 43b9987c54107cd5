import type { PermissionContext } from '../../src/domain/check-permissions';
import { checkPermissionEditor } from '../../src/domain/command-permissions/check-permission-editor';
import {
  allChannelsId,
  type CommandPermission,
} from '../../src/domain/command-permissions/command-permission-model';
import type { CommandDecision } from '../../src/domain/command-permissions/decide-command-permission';
import type { Overwrite } from '../../src/domain/guild-model';
import { DEFAULT_EVERYONE_PERMISSIONS } from '../../src/domain/limits';
import { PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';

const GUILD = '500';
const OWNER = '1';
const EDITOR = '700';
const MANAGERS = '800'; // the editor's role, position 5
const LOW = '801'; // position 2
const HIGH = '802'; // position 9
const TIED_OLDER = '799'; // position 5, older than MANAGERS: above it
const TIED_NEWER = '803'; // position 5, newer than MANAGERS: below it
const ADMINS = '804'; // ADMINISTRATOR, position 1
const CHANNEL = '600';
const HIDDEN = '601'; // MANAGE_CHANNELS denied to MANAGERS there
const UNKNOWN = '999';

const EDIT = P.MANAGE_GUILD | P.MANAGE_ROLES;
const ROLES = new Map([
  [MANAGERS, { position: 5 }],
  [LOW, { position: 2 }],
  [HIGH, { position: 9 }],
  [TIED_OLDER, { position: 5 }],
  [TIED_NEWER, { position: 5 }],
  [ADMINS, { position: 1 }],
]);
const denyManageChannels: Overwrite = { id: MANAGERS, type: 0, allow: 0n, deny: P.MANAGE_CHANNELS };
const CHANNELS = new Map([
  [CHANNEL, { type: 0, overwrites: [] as Overwrite[] }],
  [HIDDEN, { type: 0, overwrites: [denyManageChannels] }],
]);

const role = (id: string): CommandPermission => ({ id, type: 1, permission: true });
const user = (id: string): CommandPermission => ({ id, type: 2, permission: true });
const channel = (id: string): CommandPermission => ({ id, type: 3, permission: false });
const mayRun: CommandDecision = { allowed: true, reason: 'no_default_member_permissions' };
const mayNotRun: CommandDecision = { allowed: false, reason: 'role', level: 'command', overwriteId: LOW };

interface Case {
  name: string;
  /** The editor's roles with their permissions (default: MANAGERS with MANAGE_GUILD | MANAGE_ROLES | MANAGE_CHANNELS). */
  roles?: [string, bigint][];
  owner?: boolean;
  decision?: CommandDecision | null;
  permissions: CommandPermission[];
  /** The 50013 message, or undefined when allowed. */
  error?: string;
}

const cases: Case[] = [
  { name: 'a role below the editor', permissions: [role(LOW)] },
  { name: '@everyone (the guild id) is below every role', permissions: [role(GUILD)] },
  { name: 'users are not ranked', permissions: [user('42'), user(OWNER)] },
  {
    name: 'a role above the editor',
    permissions: [role(LOW), role(HIGH)],
    error: `role ${HIGH} is not below your highest role`,
  },
  {
    name: "the editor's own highest role",
    permissions: [role(MANAGERS)],
    error: `role ${MANAGERS} is not below your highest role`,
  },
  {
    name: 'a tied role that is older (higher)',
    permissions: [role(TIED_OLDER)],
    error: `role ${TIED_OLDER} is not below your highest role`,
  },
  { name: 'a tied role that is newer (lower)', permissions: [role(TIED_NEWER)] },
  {
    name: 'the highest of several roles counts',
    roles: [
      [LOW, 0n],
      [HIGH, EDIT | P.MANAGE_CHANNELS],
    ],
    permissions: [role(MANAGERS)],
  },
  {
    name: 'no role at all: only @everyone',
    roles: [],
    permissions: [role(LOW)],
    error: `role ${LOW} is not below your highest role`,
  },
  { name: 'unknown role ids are left to the 50035 check', permissions: [role(UNKNOWN), channel(UNKNOWN)] },
  { name: 'a channel where the editor has MANAGE_CHANNELS', permissions: [channel(CHANNEL)] },
  { name: 'All Channels with MANAGE_CHANNELS in the guild', permissions: [channel(allChannelsId(GUILD))] },
  {
    name: 'a channel where MANAGE_CHANNELS is denied',
    permissions: [channel(HIDDEN)],
    error: `MANAGE_CHANNELS in channel ${HIDDEN}`,
  },
  {
    name: 'a channel without MANAGE_CHANNELS in the guild',
    roles: [[MANAGERS, EDIT]],
    permissions: [channel(CHANNEL)],
    error: `MANAGE_CHANNELS in channel ${CHANNEL}`,
  },
  {
    name: 'All Channels without MANAGE_CHANNELS',
    roles: [[MANAGERS, EDIT]],
    permissions: [channel(allChannelsId(GUILD))],
    error: 'MANAGE_CHANNELS for All Channels',
  },
  {
    name: 'an editor who cannot use the command',
    decision: mayNotRun,
    permissions: [],
    error: 'you cannot use this command in this guild (role), so you cannot edit its permissions',
  },
  { name: 'the app-level entry has no command to run', decision: null, permissions: [role(LOW)] },
  {
    name: 'the owner may target any role and channel',
    owner: true,
    roles: [],
    decision: mayNotRun,
    permissions: [role(HIGH), channel(HIDDEN)],
  },
  {
    name: 'an administrator may target any role and channel',
    roles: [[ADMINS, P.ADMINISTRATOR]],
    decision: mayNotRun,
    permissions: [role(HIGH), role(MANAGERS), channel(HIDDEN)],
  },
  {
    name: 'the first obstacle is named',
    permissions: [channel(HIDDEN), role(HIGH)],
    error: `MANAGE_CHANNELS in channel ${HIDDEN}`,
  },
];

function contextOf(c: Case): PermissionContext {
  const roles = c.roles ?? [[MANAGERS, EDIT | P.MANAGE_CHANNELS]];
  const userId = c.owner ? OWNER : EDITOR;
  return {
    guildId: GUILD,
    ownerId: OWNER,
    everyonePermissions: DEFAULT_EVERYONE_PERMISSIONS,
    member: { userId, roleIds: roles.map(([id]) => id), rolePermissions: roles.map(([, bits]) => bits) },
  };
}

describe('checkPermissionEditor', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const run = () =>
      checkPermissionEditor({
        context: contextOf(c),
        decision: c.decision === undefined ? mayRun : c.decision,
        permissions: c.permissions,
        roles: ROLES,
        channels: CHANNELS,
      });
    if (c.error === undefined) expect(run).not.toThrow();
    else
      expect(run).toThrow(
        expect.objectContaining({ httpStatus: 403, code: 50013, message: `Missing Permissions: ${c.error}` }),
      );
  });

  it('refuses a non-member', () => {
    expect(() =>
      checkPermissionEditor({
        context: { guildId: GUILD, ownerId: OWNER, everyonePermissions: 0n, member: null },
        decision: null,
        permissions: [],
        roles: ROLES,
        channels: CHANNELS,
      }),
    ).toThrow('Missing Permissions: you are not a member of this guild');
  });
});
