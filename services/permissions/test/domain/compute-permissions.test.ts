import { checkPermissions, type PermissionContext } from '../../src/domain/check-permissions';
import { ChannelType } from '../../src/domain/channel-types';
import { computeBasePermissions } from '../../src/domain/compute-base-permissions';
import { computeChannelPermissions } from '../../src/domain/compute-channel-permissions';
import type { Overwrite } from '../../src/domain/guild-model';
import { DEFAULT_EVERYONE_PERMISSIONS } from '../../src/domain/limits';
import { ALL_PERMISSIONS, PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';

const GUILD = '100';
const USER = '2';
const OTHER_USER = '3';
const ROLE_A = '201';
const ROLE_B = '202';
const ROLE_C = '203';

const everyoneOverwrite = (allow: bigint, deny: bigint): Overwrite => ({ id: GUILD, type: 0, allow, deny });
const roleOverwrite = (id: string, allow: bigint, deny: bigint): Overwrite => ({ id, type: 0, allow, deny });
const memberOverwrite = (id: string, allow: bigint, deny: bigint): Overwrite => ({
  id,
  type: 1,
  allow,
  deny,
});

describe('computeBasePermissions (D:topics/permissions.mdx compute_base_permissions)', () => {
  it.each([
    [
      'the owner has everything, whatever the roles say',
      { isOwner: true, everyonePermissions: 0n, rolePermissions: [] },
      ALL_PERMISSIONS,
    ],
    [
      'a member with no role has the @everyone permissions',
      { isOwner: false, everyonePermissions: P.SEND_MESSAGES, rolePermissions: [] },
      P.SEND_MESSAGES,
    ],
    [
      'roles add to @everyone (union)',
      {
        isOwner: false,
        everyonePermissions: P.SEND_MESSAGES,
        rolePermissions: [P.KICK_MEMBERS, P.BAN_MEMBERS | P.KICK_MEMBERS],
      },
      P.SEND_MESSAGES | P.KICK_MEMBERS | P.BAN_MEMBERS,
    ],
    [
      'a role with ADMINISTRATOR gives everything',
      { isOwner: false, everyonePermissions: P.SEND_MESSAGES, rolePermissions: [P.ADMINISTRATOR] },
      ALL_PERMISSIONS,
    ],
    [
      'ADMINISTRATOR on @everyone gives everything',
      { isOwner: false, everyonePermissions: P.ADMINISTRATOR, rolePermissions: [] },
      ALL_PERMISSIONS,
    ],
    ['no permission at all', { isOwner: false, everyonePermissions: 0n, rolePermissions: [0n] }, 0n],
  ])('%s', (_name, input, expected) => {
    expect(computeBasePermissions(input)).toBe(expected);
  });
});

describe('computeChannelPermissions (D:topics/permissions.mdx compute_overwrites)', () => {
  const base = P.VIEW_CHANNEL | P.SEND_MESSAGES | P.ADD_REACTIONS;
  const member = { guildId: GUILD, userId: USER, roleIds: [ROLE_A, ROLE_B] };

  it.each<[string, bigint, Overwrite[], bigint]>([
    ['no overwrites leave the base permissions', base, [], base],
    [
      '@everyone deny removes bits',
      base,
      [everyoneOverwrite(0n, P.SEND_MESSAGES)],
      P.VIEW_CHANNEL | P.ADD_REACTIONS,
    ],
    ['@everyone allow adds bits', base, [everyoneOverwrite(P.EMBED_LINKS, 0n)], base | P.EMBED_LINKS],
    [
      '@everyone allow is applied after its deny',
      base,
      [everyoneOverwrite(P.SEND_MESSAGES, P.SEND_MESSAGES)],
      base,
    ],
    [
      'a role allow beats the @everyone deny',
      base,
      [everyoneOverwrite(0n, P.SEND_MESSAGES), roleOverwrite(ROLE_A, P.SEND_MESSAGES, 0n)],
      base,
    ],
    [
      'a role deny beats the @everyone allow',
      base,
      [everyoneOverwrite(P.EMBED_LINKS, 0n), roleOverwrite(ROLE_A, 0n, P.EMBED_LINKS)],
      base,
    ],
    [
      'role overwrites are aggregated: one role allowing beats another denying, in either order',
      base,
      [roleOverwrite(ROLE_A, 0n, P.SEND_MESSAGES), roleOverwrite(ROLE_B, P.SEND_MESSAGES, 0n)],
      base,
    ],
    [
      'role overwrites are aggregated (reverse order)',
      base,
      [roleOverwrite(ROLE_B, P.SEND_MESSAGES, 0n), roleOverwrite(ROLE_A, 0n, P.SEND_MESSAGES)],
      base,
    ],
    [
      'an overwrite of a role the member lacks is ignored',
      base,
      [roleOverwrite(ROLE_C, 0n, P.VIEW_CHANNEL)],
      base,
    ],
    [
      'the member overwrite deny beats a role allow',
      base,
      [roleOverwrite(ROLE_A, P.EMBED_LINKS, 0n), memberOverwrite(USER, 0n, P.EMBED_LINKS | P.SEND_MESSAGES)],
      P.VIEW_CHANNEL | P.ADD_REACTIONS,
    ],
    [
      'the member overwrite allow beats a role deny and the @everyone deny',
      base,
      [
        everyoneOverwrite(0n, P.VIEW_CHANNEL),
        roleOverwrite(ROLE_A, 0n, P.SEND_MESSAGES),
        memberOverwrite(USER, P.VIEW_CHANNEL | P.SEND_MESSAGES, 0n),
      ],
      base,
    ],
    ["another member's overwrite is ignored", base, [memberOverwrite(OTHER_USER, 0n, P.VIEW_CHANNEL)], base],
    [
      'a member overwrite whose id equals a role id is not a role overwrite',
      base,
      [memberOverwrite(ROLE_A, 0n, P.VIEW_CHANNEL)],
      base,
    ],
    [
      'ADMINISTRATOR skips every overwrite',
      P.ADMINISTRATOR,
      [everyoneOverwrite(0n, P.VIEW_CHANNEL), memberOverwrite(USER, 0n, P.VIEW_CHANNEL)],
      ALL_PERMISSIONS,
    ],
  ])('%s', (_name, basePermissions, overwrites, expected) => {
    expect(computeChannelPermissions(basePermissions, { ...member, overwrites })).toBe(expected);
  });
});

describe('checkPermissions', () => {
  const OWNER = '1';
  const context = (overrides: Partial<PermissionContext> = {}): PermissionContext => ({
    guildId: GUILD,
    ownerId: OWNER,
    everyonePermissions: DEFAULT_EVERYONE_PERMISSIONS,
    member: { userId: USER, roleIds: [], rolePermissions: [] },
    ...overrides,
  });
  const textChannel = (overwrites: Overwrite[]): PermissionContext['channel'] => ({
    type: ChannelType.GUILD_TEXT,
    overwrites,
    parent: null,
  });

  it('answers a non-member with nothing: not allowed, every bit missing', () => {
    expect(checkPermissions(context({ member: null }), P.SEND_MESSAGES)).toEqual({
      allowed: false,
      missing: P.SEND_MESSAGES,
      isMember: false,
      permissions: 0n,
    });
  });

  it('gives the owner everything, even against channel overwrites', () => {
    const owner = context({
      member: { userId: OWNER, roleIds: [], rolePermissions: [] },
      channel: textChannel([
        everyoneOverwrite(0n, P.VIEW_CHANNEL),
        memberOverwrite(OWNER, 0n, P.SEND_MESSAGES),
      ]),
    });
    const decision = checkPermissions(owner, P.MANAGE_GUILD | P.SEND_MESSAGES);
    expect(decision).toMatchObject({ allowed: true, missing: 0n, isMember: true });
    expect(decision.permissions).toBe(ALL_PERMISSIONS);
  });

  it('reports only the missing bits of the required set', () => {
    const decision = checkPermissions(context(), P.MANAGE_GUILD | P.SEND_MESSAGES | P.MANAGE_ROLES);
    expect(decision).toMatchObject({
      allowed: false,
      missing: P.MANAGE_GUILD | P.MANAGE_ROLES,
      isMember: true,
    });
  });

  it('allows what a role grants', () => {
    const member = { userId: USER, roleIds: [ROLE_A], rolePermissions: [P.MANAGE_GUILD | P.MANAGE_ROLES] };
    expect(checkPermissions(context({ member }), P.MANAGE_GUILD | P.MANAGE_ROLES).allowed).toBe(true);
  });

  it('allows an empty requirement for a member', () => {
    expect(checkPermissions(context(), 0n)).toMatchObject({ allowed: true, missing: 0n });
  });

  it('applies the channel overwrites when a channel is given', () => {
    const channel = textChannel([everyoneOverwrite(0n, P.USE_APPLICATION_COMMANDS)]);
    expect(checkPermissions(context(), P.USE_APPLICATION_COMMANDS).allowed).toBe(true);
    expect(checkPermissions(context({ channel }), P.USE_APPLICATION_COMMANDS)).toMatchObject({
      allowed: false,
      missing: P.USE_APPLICATION_COMMANDS,
    });
  });

  it("uses the parent channel's overwrites for a thread, not the thread's own", () => {
    const thread: PermissionContext['channel'] = {
      type: ChannelType.PUBLIC_THREAD,
      overwrites: [everyoneOverwrite(P.USE_APPLICATION_COMMANDS, 0n)],
      parent: { overwrites: [everyoneOverwrite(0n, P.USE_APPLICATION_COMMANDS)] },
    };
    expect(checkPermissions(context({ channel: thread }), P.USE_APPLICATION_COMMANDS).missing).toBe(
      P.USE_APPLICATION_COMMANDS,
    );
  });

  it('implicitly denies everything in a channel the member cannot view', () => {
    const channel = textChannel([everyoneOverwrite(0n, P.VIEW_CHANNEL)]);
    const decision = checkPermissions(context({ channel }), P.SEND_MESSAGES | P.USE_APPLICATION_COMMANDS);
    expect(decision).toMatchObject({ allowed: false, missing: P.SEND_MESSAGES | P.USE_APPLICATION_COMMANDS });
    expect(decision.permissions).toBe(0n);
  });

  it('implicitly denies EMBED_LINKS and the like without SEND_MESSAGES, and uses SEND_MESSAGES_IN_THREADS in threads', () => {
    const deniedSend = [everyoneOverwrite(0n, P.SEND_MESSAGES)];
    expect(checkPermissions(context({ channel: textChannel(deniedSend) }), P.EMBED_LINKS).missing).toBe(
      P.EMBED_LINKS,
    );
    const thread: PermissionContext['channel'] = {
      type: ChannelType.PUBLIC_THREAD,
      overwrites: [],
      parent: { overwrites: deniedSend },
    };
    expect(checkPermissions(context({ channel: thread }), P.EMBED_LINKS).allowed).toBe(true);
  });
});
