import {
  allChannelsId,
  type CommandPermission,
} from '../../src/domain/command-permissions/command-permission-model';
import {
  decideCommandPermission,
  type CommandDecision,
  type CommandDecisionInput,
} from '../../src/domain/command-permissions/decide-command-permission';
import { DEFAULT_EVERYONE_PERMISSIONS } from '../../src/domain/limits';
import { PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';

const GUILD = '500';
const ALL = allChannelsId(GUILD); // '499'
const CHANNEL = '600';
const OTHER_CHANNEL = '601';
const USER = '700';
const MODS = '800';
const HELPERS = '801';

const role = (id: string, permission: boolean): CommandPermission => ({ id, type: 1, permission });
const user = (id: string, permission: boolean): CommandPermission => ({ id, type: 2, permission });
const channel = (id: string, permission: boolean): CommandPermission => ({ id, type: 3, permission });

interface Case {
  name: string;
  roles?: string[];
  admin?: boolean;
  member?: false;
  permissions?: bigint;
  /** The channel asked about (for a thread: its parent, as the handler resolves it). */
  channelId?: string | null;
  command?: CommandPermission[];
  app?: CommandPermission[];
  dmp?: bigint | null;
  expect: CommandDecision;
}

function run(c: Case): CommandDecision {
  const input: CommandDecisionInput = {
    guildId: GUILD,
    channelId: c.channelId === null ? undefined : (c.channelId ?? CHANNEL),
    member:
      c.member === false
        ? null
        : {
            userId: USER,
            roleIds: c.roles ?? [],
            isAdministrator: c.admin ?? false,
            permissions: c.permissions ?? DEFAULT_EVERYONE_PERMISSIONS,
          },
    commandOverwrites: c.command ?? [],
    applicationOverwrites: c.app ?? [],
    defaultMemberPermissions: c.dmp === undefined ? null : c.dmp,
  };
  return decideCommandPermission(input);
}

const allow = (reason: CommandDecision['reason'], level?: 'command' | 'application', overwriteId?: string) =>
  ({ allowed: true, reason, ...(level ? { level, overwriteId } : {}) }) as CommandDecision;
const deny = (reason: CommandDecision['reason'], level?: 'command' | 'application', overwriteId?: string) =>
  ({ allowed: false, reason, ...(level ? { level, overwriteId } : {}) }) as CommandDecision;

const CASES: Case[] = [
  // Who is asking.
  { name: 'no overwrites, no default permissions: allowed', expect: allow('no_default_member_permissions') },
  { name: 'a non-member is never allowed', member: false, expect: deny('not_member') },
  {
    name: 'administrator beats a user deny',
    admin: true,
    command: [user(USER, false)],
    expect: allow('administrator'),
  },
  {
    name: 'administrator beats a channel deny',
    admin: true,
    command: [channel(CHANNEL, false)],
    expect: allow('administrator'),
  },
  { name: 'administrator may use a "0" command', admin: true, dmp: 0n, expect: allow('administrator') },
  {
    name: 'without USE_APPLICATION_COMMANDS in the channel: denied before any overwrite',
    permissions: DEFAULT_EVERYONE_PERMISSIONS & ~P.USE_APPLICATION_COMMANDS,
    command: [user(USER, true)],
    expect: deny('missing_use_application_commands'),
  },
  // The channel gate.
  {
    name: 'command-level channel deny',
    command: [channel(CHANNEL, false)],
    expect: deny('channel', 'command', CHANNEL),
  },
  {
    name: 'command-level channel deny wins over a user allow',
    command: [channel(CHANNEL, false), user(USER, true)],
    expect: deny('channel', 'command', CHANNEL),
  },
  {
    name: 'command-level channel deny wins over a role allow',
    roles: [MODS],
    command: [channel(CHANNEL, false), role(MODS, true)],
    expect: deny('channel', 'command', CHANNEL),
  },
  { name: 'All Channels deny', command: [channel(ALL, false)], expect: deny('channel', 'command', ALL) },
  {
    name: 'a specific channel allow beats All Channels deny',
    command: [channel(ALL, false), channel(CHANNEL, true)],
    expect: allow('no_default_member_permissions'),
  },
  {
    name: 'All Channels deny applies to channels without their own overwrite',
    channelId: OTHER_CHANNEL,
    command: [channel(ALL, false), channel(CHANNEL, true)],
    expect: deny('channel', 'command', ALL),
  },
  {
    name: 'a specific channel deny beats All Channels allow',
    command: [channel(ALL, true), channel(CHANNEL, false)],
    expect: deny('channel', 'command', CHANNEL),
  },
  {
    name: 'a thread uses its parent channel: parent denied',
    channelId: CHANNEL, // the thread's parent, as commandPermissionChannelId resolves it
    command: [channel(CHANNEL, false)],
    expect: deny('channel', 'command', CHANNEL),
  },
  {
    name: 'no channel given: channel overwrites do not gate',
    channelId: null,
    command: [channel(ALL, false)],
    expect: allow('no_default_member_permissions'),
  },
  {
    name: 'a channel allow alone does not grant past default permissions',
    command: [channel(CHANNEL, true)],
    dmp: P.MANAGE_GUILD,
    expect: { allowed: false, reason: 'default_member_permissions', missing: P.MANAGE_GUILD },
  },
  // User beats role beats @everyone.
  {
    name: 'user allow beats role deny',
    roles: [MODS],
    command: [user(USER, true), role(MODS, false)],
    expect: allow('user', 'command', USER),
  },
  {
    name: 'user deny beats role allow',
    roles: [MODS],
    command: [user(USER, false), role(MODS, true)],
    expect: deny('user', 'command', USER),
  },
  {
    name: 'role allow beats @everyone deny',
    roles: [MODS],
    command: [role(GUILD, false), role(MODS, true)],
    expect: allow('role', 'command', MODS),
  },
  {
    name: 'role deny beats @everyone allow',
    roles: [MODS],
    command: [role(GUILD, true), role(MODS, false)],
    expect: deny('role', 'command', MODS),
  },
  {
    name: 'one role allowing is enough when another denies',
    roles: [MODS, HELPERS],
    command: [role(MODS, false), role(HELPERS, true)],
    expect: allow('role', 'command', HELPERS),
  },
  { name: '@everyone deny', command: [role(GUILD, false)], expect: deny('everyone', 'command', GUILD) },
  {
    name: '@everyone allow beats default permissions',
    command: [role(GUILD, true)],
    dmp: P.BAN_MEMBERS,
    expect: allow('everyone', 'command', GUILD),
  },
  {
    name: 'overwrites of roles the user lacks do not apply',
    roles: [HELPERS],
    command: [role(MODS, false)],
    expect: allow('no_default_member_permissions'),
  },
  // Command level over app level, target by target.
  { name: 'app-level user deny', app: [user(USER, false)], expect: deny('user', 'application', USER) },
  {
    name: 'command-level user allow beats app-level user deny',
    app: [user(USER, false)],
    command: [user(USER, true)],
    expect: allow('user', 'command', USER),
  },
  {
    name: 'command-level channel allow beats app-level channel deny',
    app: [channel(CHANNEL, false)],
    command: [channel(CHANNEL, true)],
    expect: allow('no_default_member_permissions'),
  },
  {
    name: 'app-level All Channels deny applies when the command says nothing',
    app: [channel(ALL, false)],
    expect: deny('channel', 'application', ALL),
  },
  {
    name: 'app-level overwrites for other targets stay in effect (role allowed at app level)',
    roles: [MODS],
    app: [role(GUILD, false), role(MODS, true)],
    command: [role(HELPERS, true)],
    expect: allow('role', 'application', MODS),
  },
  {
    name: 'app-level @everyone deny still applies to members without an allowed role',
    roles: [],
    app: [role(GUILD, false), role(MODS, true)],
    command: [role(HELPERS, true)],
    expect: deny('everyone', 'application', GUILD),
  },
  {
    name: 'command-level role deny beats app-level allow of the same role',
    roles: [MODS],
    app: [role(MODS, true)],
    command: [role(MODS, false)],
    expect: deny('role', 'command', MODS),
  },
  {
    name: 'app-level specific channel allow beats command-level All Channels deny (specific first)',
    app: [channel(CHANNEL, true)],
    command: [channel(ALL, false)],
    expect: allow('no_default_member_permissions'),
  },
  // default_member_permissions.
  {
    name: '"0": nobody but administrators',
    dmp: 0n,
    expect: { allowed: false, reason: 'default_member_permissions', missing: 0n },
  },
  {
    name: '"0" with a user allow: allowed',
    dmp: 0n,
    command: [user(USER, true)],
    expect: allow('user', 'command', USER),
  },
  {
    name: '"0" with a role allow: allowed',
    dmp: 0n,
    roles: [MODS],
    app: [role(MODS, true)],
    expect: allow('role', 'application', MODS),
  },
  {
    name: 'default permissions held: allowed',
    dmp: P.MANAGE_GUILD,
    permissions: DEFAULT_EVERYONE_PERMISSIONS | P.MANAGE_GUILD,
    expect: { allowed: true, reason: 'default_member_permissions', missing: 0n },
  },
  {
    name: 'default permissions lacking: denied, naming the missing bits',
    dmp: P.MANAGE_GUILD | P.SEND_MESSAGES,
    expect: { allowed: false, reason: 'default_member_permissions', missing: P.MANAGE_GUILD },
  },
];

describe('decideCommandPermission (permissions v2 precedence)', () => {
  it('has at least 25 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(25));
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(run(c)).toEqual(c.expect);
  });
});
