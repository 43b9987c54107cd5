import { checkPermissions, type PermissionContext } from '../../src/domain/check-permissions';
import { ChannelType } from '../../src/domain/channel-types';
import { DEFAULT_EVERYONE_PERMISSIONS } from '../../src/domain/limits';
import { applyTimeout, isTimedOut, TIMEOUT_KEPT_PERMISSIONS } from '../../src/domain/member-timeout';
import { ALL_PERMISSIONS, PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';

const GUILD = '100';
const OWNER = '1';
const USER = '2';
const ROLE = '201';
const NOW = new Date('2027-03-01T12:00:00.000Z');
const LATER = new Date(NOW.getTime() + 60_000);
const EARLIER = new Date(NOW.getTime() - 1);

/** A member of the guild with one role holding `rolePermissions`, in a text channel with `overwrites`. */
function contextOf(options: {
  userId?: string;
  rolePermissions?: bigint;
  until: Date | null;
  now?: Date;
  channel?: boolean;
  memberAllow?: bigint;
}): PermissionContext {
  const userId = options.userId ?? USER;
  return {
    guildId: GUILD,
    ownerId: OWNER,
    everyonePermissions: DEFAULT_EVERYONE_PERMISSIONS,
    member: {
      userId,
      roleIds: [ROLE],
      rolePermissions: [options.rolePermissions ?? 0n],
      communicationDisabledUntil: options.until,
    },
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.channel === false
      ? {}
      : {
          channel: {
            type: ChannelType.GUILD_TEXT,
            overwrites: [{ id: userId, type: 1, allow: options.memberAllow ?? 0n, deny: 0n }],
            parent: null,
          },
        }),
  };
}

describe('isTimedOut', () => {
  it.each([
    ['no timeout', null, false],
    ['an end ahead of now', LATER, true],
    ['an end exactly now (ended)', NOW, false],
    ['an end past', EARLIER, false],
  ])('%s', (_name, until, expected) => {
    expect(isTimedOut(until, NOW)).toBe(expected);
  });
});

describe('applyTimeout', () => {
  it('keeps only VIEW_CHANNEL and READ_MESSAGE_HISTORY of what the member holds', () => {
    const held = P.VIEW_CHANNEL | P.SEND_MESSAGES | P.ADD_REACTIONS | P.USE_APPLICATION_COMMANDS;
    expect(applyTimeout(held, { basePermissions: held, until: LATER }, NOW)).toBe(P.VIEW_CHANNEL);
    expect(TIMEOUT_KEPT_PERMISSIONS).toBe(P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY);
  });

  it('grants nothing the member did not hold', () => {
    expect(applyTimeout(P.SEND_MESSAGES, { basePermissions: P.SEND_MESSAGES, until: LATER }, NOW)).toBe(0n);
  });

  it('leaves administrators (and so the owner) untouched', () => {
    expect(applyTimeout(ALL_PERMISSIONS, { basePermissions: ALL_PERMISSIONS, until: LATER }, NOW)).toBe(
      ALL_PERMISSIONS,
    );
  });

  it('changes nothing once the timeout has ended, or without one', () => {
    expect(applyTimeout(P.SEND_MESSAGES, { basePermissions: P.SEND_MESSAGES, until: EARLIER }, NOW)).toBe(
      P.SEND_MESSAGES,
    );
    expect(applyTimeout(P.SEND_MESSAGES, { basePermissions: P.SEND_MESSAGES, until: null }, NOW)).toBe(
      P.SEND_MESSAGES,
    );
  });
});

describe('checkPermissions with a timed-out member', () => {
  it('refuses sending, reacting and application commands in a channel, and keeps reading', () => {
    const decision = checkPermissions(contextOf({ until: LATER, now: NOW }), P.SEND_MESSAGES);
    expect(decision.allowed).toBe(false);
    expect(decision.isMember).toBe(true);
    expect(decision.permissions).toBe(P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY);
    expect(checkPermissions(contextOf({ until: LATER, now: NOW }), P.READ_MESSAGE_HISTORY).allowed).toBe(
      true,
    );
  });

  it("applies after the channel's overwrites: a member overwrite allowing SEND_MESSAGES does not help", () => {
    const context = contextOf({ until: LATER, now: NOW, memberAllow: P.SEND_MESSAGES | P.ADD_REACTIONS });
    expect(checkPermissions(context, 0n).permissions).toBe(P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY);
  });

  it('applies to guild-level permissions too (a timed-out moderator cannot moderate)', () => {
    const context = contextOf({
      until: LATER,
      now: NOW,
      channel: false,
      rolePermissions: P.MODERATE_MEMBERS,
    });
    const decision = checkPermissions(context, P.MODERATE_MEMBERS);
    expect(decision.allowed).toBe(false);
    expect(decision.missing).toBe(P.MODERATE_MEMBERS);
  });

  it('leaves the owner and administrators as they are', () => {
    const owner = checkPermissions(contextOf({ userId: OWNER, until: LATER, now: NOW }), P.SEND_MESSAGES);
    expect(owner.allowed).toBe(true);
    const admin = checkPermissions(
      contextOf({ until: LATER, now: NOW, rolePermissions: P.ADMINISTRATOR }),
      P.SEND_MESSAGES,
    );
    expect(admin.permissions).toBe(ALL_PERMISSIONS);
  });

  it('restores everything once `now` passes the end (time moves, nothing is rewritten)', () => {
    const timedOut = checkPermissions(contextOf({ until: LATER, now: NOW }), P.SEND_MESSAGES);
    const after = checkPermissions(
      contextOf({ until: LATER, now: new Date(LATER.getTime() + 1) }),
      P.SEND_MESSAGES,
    );
    expect(timedOut.allowed).toBe(false);
    expect(after.allowed).toBe(true);
  });

  it('weighs no timeout without a `now` (a context built by hand)', () => {
    expect(checkPermissions(contextOf({ until: LATER }), P.SEND_MESSAGES).allowed).toBe(true);
  });
});
