import { visibleChannelIds, type ViewerContext } from '../../src/domain/channel-visibility';
import { checkOverwriteEditor } from '../../src/domain/check-overwrite-editor';
import type { Channel, Overwrite } from '../../src/domain/guild-model';
import { PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';

// Which channels a member may view (Get Guild Channels, obfuscation), and who may edit an
// overwrite, as pure rules.

const GUILD = '100';
const BOT = '200';
const ROLE = '300';

const channel = (
  id: string,
  type: number,
  overwrites: Overwrite[] = [],
  parentId: string | null = null,
): Channel => ({
  id,
  guildId: GUILD,
  type,
  name: `c${id}`,
  parentId,
  position: 0,
  overwrites,
  createdAt: new Date(0),
});
const deny = (id: string, bits: bigint, type: 0 | 1 = 0): Overwrite => ({ id, type, allow: 0n, deny: bits });
const allow = (id: string, bits: bigint, type: 0 | 1 = 0): Overwrite => ({ id, type, allow: bits, deny: 0n });

const viewer = (everyone: bigint, rolePermissions: bigint[] = [], ownerId = '1'): ViewerContext => ({
  guildId: GUILD,
  ownerId,
  everyonePermissions: everyone,
  member: { userId: BOT, roleIds: rolePermissions.map((_, i) => `${Number(ROLE) + i}`), rolePermissions },
});

describe('visibleChannelIds', () => {
  const hiddenCategory = channel('10', 4, [deny(GUILD, P.VIEW_CHANNEL)]);
  const openChild = channel('11', 0, [allow(BOT, P.VIEW_CHANNEL, 1)], '10');
  const hiddenChild = channel('12', 0, [deny(GUILD, P.VIEW_CHANNEL)], '10');
  const emptyHiddenCategory = channel('13', 4, [deny(GUILD, P.VIEW_CHANNEL)]);
  const open = channel('14', 0);
  const thread = channel('15', 11, [], '14');
  const hiddenThread = channel('16', 11, [], '12');
  const all = [hiddenCategory, openChild, hiddenChild, emptyHiddenCategory, open, thread, hiddenThread];

  it('applies overwrites; a category is viewable through a viewable channel; threads follow their parent', () => {
    expect([...visibleChannelIds(viewer(P.VIEW_CHANNEL), all)].sort()).toEqual(['10', '11', '14', '15']);
  });

  it('lets a role overwrite grant and a member overwrite deny', () => {
    const roleGrant = channel('20', 0, [deny(GUILD, P.VIEW_CHANNEL), allow(ROLE, P.VIEW_CHANNEL)]);
    const memberDeny = channel('21', 0, [allow(ROLE, P.VIEW_CHANNEL), deny(BOT, P.VIEW_CHANNEL, 1)]);
    expect([...visibleChannelIds(viewer(P.VIEW_CHANNEL, [0n]), [roleGrant, memberDeny])]).toEqual(['20']);
  });

  it('shows everything to administrators and the owner, nothing to a non-member', () => {
    const everything = all.map((c) => c.id).sort();
    expect([...visibleChannelIds(viewer(0n, [P.ADMINISTRATOR]), all)].sort()).toEqual(everything);
    expect([...visibleChannelIds(viewer(0n, [], BOT), all)].sort()).toEqual(everything);
    expect(visibleChannelIds({ ...viewer(P.VIEW_CHANNEL), member: null }, all).size).toBe(0);
    // Without VIEW_CHANNEL in the guild, only the member overwrite's channel (and its category).
    expect([...visibleChannelIds(viewer(0n), all)].sort()).toEqual(['10', '11']);
  });
});

describe('checkOverwriteEditor', () => {
  const target = (overwrites: Overwrite[] = [], parent: Channel | null = null) => ({
    channel: channel('30', 0, overwrites, parent?.id ?? null),
    parent,
  });
  const codeOf = (run: () => void) => {
    try {
      run();
      return 'ok';
    } catch (error) {
      const e = error as { code: number; message: string };
      return `${e.code} ${e.message}`;
    }
  };

  it('needs membership and VIEW_CHANNEL (50001), then MANAGE_ROLES (50013)', () => {
    expect(
      codeOf(() => checkOverwriteEditor({ ...viewer(P.VIEW_CHANNEL), member: null }, target(), 0n)),
    ).toBe('50001 Missing Access');
    expect(codeOf(() => checkOverwriteEditor(viewer(P.MANAGE_ROLES), target(), 0n))).toBe(
      '50001 Missing Access',
    );
    expect(codeOf(() => checkOverwriteEditor(viewer(P.VIEW_CHANNEL), target(), 0n))).toBe(
      '50013 Missing Permissions: MANAGE_ROLES',
    );
  });

  it('allows only bits the editor holds in the guild, or in the parent category', () => {
    const editor = viewer(P.VIEW_CHANNEL | P.MANAGE_ROLES | P.SEND_MESSAGES);
    expect(codeOf(() => checkOverwriteEditor(editor, target(), P.SEND_MESSAGES | P.VIEW_CHANNEL))).toBe('ok');
    expect(codeOf(() => checkOverwriteEditor(editor, target(), P.ADMINISTRATOR | P.KICK_MEMBERS))).toBe(
      '50013 Missing Permissions: KICK_MEMBERS, ADMINISTRATOR',
    );
    const parent = channel('31', 4, [deny(GUILD, P.SEND_MESSAGES)]);
    expect(codeOf(() => checkOverwriteEditor(editor, target([], parent), P.SEND_MESSAGES))).toBe(
      '50013 Missing Permissions: SEND_MESSAGES',
    );
  });

  it('allows any bits with a MANAGE_ROLES overwrite in the channel, and to administrators', () => {
    const editor = viewer(P.VIEW_CHANNEL);
    expect(
      codeOf(() => checkOverwriteEditor(editor, target([allow(BOT, P.MANAGE_ROLES, 1)]), P.BAN_MEMBERS)),
    ).toBe('ok');
    expect(codeOf(() => checkOverwriteEditor(viewer(0n, [P.ADMINISTRATOR]), target(), P.BAN_MEMBERS))).toBe(
      'ok',
    );
  });
});
