import type { Member, Role } from '../../src/domain/guild-model';
import { DEFAULT_EVERYONE_PERMISSIONS } from '../../src/domain/limits';
import { PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';
import { planModifyMember, type ModifyMemberFacts } from '../../src/domain/plan-modify-member';
import { parseIsoDateTime, validateModifyMember } from '../../src/domain/validate-modify-member';
import { discordErrorOf, formErrorsOf, oneError } from '../support/errors';

const GUILD = '100';
const OWNER = '1';
const BOT = '50';
const USER = '2';
const NOW = new Date('2027-03-01T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

describe('parseIsoDateTime', () => {
  it.each([
    ['2027-03-01T12:01:00Z', '2027-03-01T12:01:00.000Z'],
    ['2027-03-01T12:01:00.123456+00:00', '2027-03-01T12:01:00.123Z'],
    ['2027-03-01T14:01:00+0200', '2027-03-01T12:01:00.000Z'],
    ['2027-03-01T12:01Z', '2027-03-01T12:01:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseIsoDateTime(text)?.toISOString()).toBe(iso);
  });

  it.each([
    'tomorrow',
    '2027-03-01',
    '2027-02-31T00:00:00Z',
    '2027-03-01T25:00:00Z',
    '1'.repeat(1_000_000),
    '',
  ])('refuses %s', (text) => {
    expect(parseIsoDateTime(text)).toBeNull();
  });
});

describe('validateModifyMember', () => {
  it('keeps what is absent and reads each field', () => {
    expect(validateModifyMember({})).toEqual({});
    expect(validateModifyMember({ mute: true, deaf: false, flags: 0 })).toEqual({});
    expect(
      validateModifyMember({
        nick: 'bob',
        roles: ['201', 202],
        communication_disabled_until: '2027-03-02T00:00:00Z',
      }),
    ).toEqual({
      nick: 'bob',
      roles: ['201', '202'],
      communicationDisabledUntil: new Date('2027-03-02T00:00:00Z'),
    });
    expect(validateModifyMember({ nick: '', roles: null, communication_disabled_until: null })).toEqual({
      nick: null,
      roles: [],
      communicationDisabledUntil: null,
    });
  });

  it('answers 50035 with a field error for each bad field', () => {
    expect(
      formErrorsOf(() =>
        validateModifyMember({
          communication_disabled_until: 'soon',
          nick: 'n'.repeat(33),
          roles: ['9223372036854775808'],
        }),
      ),
    ).toEqual({
      communication_disabled_until: {
        _errors: [{ code: 'DATE_TIME_TYPE_PARSE', message: 'Could not parse soon. Should be ISO8601.' }],
      },
      nick: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 32 or fewer in length.' }] },
      roles: {
        '0': { _errors: [expect.objectContaining({ code: 'NUMBER_TYPE_MAX' })] },
      },
    });
    expect(formErrorsOf(() => validateModifyMember({ communication_disabled_until: 5 }))).toEqual(
      oneError(['communication_disabled_until'], 'BASE_TYPE_STRING', 'Could not interpret "5" as string.'),
    );
    expect(formErrorsOf(() => validateModifyMember({ nick: 'a\u0000b' }))).toEqual({
      nick: { _errors: [expect.objectContaining({ code: 'STRING_TYPE_NUL_CHARACTER' })] },
    });
    expect(formErrorsOf(() => validateModifyMember([]))).toEqual({
      _errors: [expect.objectContaining({ code: 'MODEL_TYPE_CONVERT' })],
    });
  });
});

/** A guild: @everyone, a moderator role at 3 (the bot's), a role at 2, a high role at 5, an admin role at 1. */
const roles: Role[] = [
  {
    id: GUILD,
    guildId: GUILD,
    name: '@everyone',
    permissions: DEFAULT_EVERYONE_PERMISSIONS,
    position: 0,
    botId: null,
  },
  {
    id: '203',
    guildId: GUILD,
    name: 'bot',
    permissions: P.MODERATE_MEMBERS | P.MANAGE_NICKNAMES | P.MANAGE_ROLES,
    position: 3,
    botId: BOT,
  },
  { id: '202', guildId: GUILD, name: 'member', permissions: 0n, position: 2, botId: null },
  { id: '204', guildId: GUILD, name: 'younger peer', permissions: 0n, position: 3, botId: null },
  { id: '199', guildId: GUILD, name: 'older peer', permissions: 0n, position: 3, botId: null },
  { id: '205', guildId: GUILD, name: 'high', permissions: 0n, position: 5, botId: null },
  { id: '201', guildId: GUILD, name: 'admin', permissions: P.ADMINISTRATOR, position: 1, botId: null },
];

const member = (userId: string, roleIds: string[], until: Date | null = null): Member => ({
  guildId: GUILD,
  userId,
  nick: null,
  roleIds,
  joinedAt: new Date(0),
  communicationDisabledUntil: until,
});

function factsOf(
  target: Member,
  actor: Member | null = member(BOT, ['203']),
  roleList = roles,
): ModifyMemberFacts {
  return {
    guildId: GUILD,
    ownerId: OWNER,
    roles: new Map(roleList.map((role) => [role.id, role])),
    target,
    actor,
    now: NOW,
  };
}

const inAMinute = new Date(NOW.getTime() + 60_000);

describe('planModifyMember', () => {
  it('times a member out, and lifts it', () => {
    expect(
      planModifyMember(factsOf(member(USER, ['202'])), { communicationDisabledUntil: inAMinute }),
    ).toEqual({
      communicationDisabledUntil: inAMinute,
    });
    expect(
      planModifyMember(factsOf(member(USER, [], inAMinute)), { communicationDisabledUntil: null }),
    ).toEqual({
      communicationDisabledUntil: null,
    });
  });

  it('accepts an end 28 days ahead and refuses one past it (50035), counted from the database clock', () => {
    const last = new Date(NOW.getTime() + 28 * DAY);
    expect(planModifyMember(factsOf(member(USER, [])), { communicationDisabledUntil: last })).toEqual({
      communicationDisabledUntil: last,
    });
    const error = formErrorsOf(() =>
      planModifyMember(factsOf(member(USER, [])), {
        communicationDisabledUntil: new Date(last.getTime() + 1),
      }),
    );
    expect(error).toEqual({
      communication_disabled_until: {
        _errors: [expect.objectContaining({ code: 'COMMUNICATION_DISABLED_UNTIL_TOO_LATE' })],
      },
    });
  });

  it('needs MODERATE_MEMBERS (50013 naming it)', async () => {
    const weak = roles.map((role) => (role.id === '203' ? { ...role, permissions: 0n } : role));
    const error = await discordErrorOf(() =>
      planModifyMember(factsOf(member(USER, []), undefined, weak), { communicationDisabledUntil: inAMinute }),
    );
    expect([error.httpStatus, error.code, error.message]).toEqual([
      403,
      50013,
      'Missing Permissions: MODERATE_MEMBERS',
    ]);
  });

  it.each([
    ['the owner', member(OWNER, [])],
    ['an administrator', member(USER, ['201'])],
    ['a member whose highest role is above the bot’s', member(USER, ['205'])],
    ['a member whose highest role is the bot’s own rank', member(USER, ['203'])],
    ['a member whose role shares the bot’s position and is older', member(USER, ['199'])],
  ])('refuses to time out %s (50013)', async (_name, target) => {
    const error = await discordErrorOf(() =>
      planModifyMember(factsOf(target), { communicationDisabledUntil: inAMinute }),
    );
    expect([error.httpStatus, error.code]).toEqual([403, 50013]);
  });

  it('ranks roles at the same position by age: the bot’s older role is above a younger one', () => {
    expect(
      planModifyMember(factsOf(member(USER, ['204'])), { communicationDisabledUntil: inAMinute }),
    ).toEqual({
      communicationDisabledUntil: inAMinute,
    });
  });

  it('lets the owner time out anyone but administrators', () => {
    const plan = planModifyMember(factsOf(member(USER, ['205']), member(OWNER, [])), {
      communicationDisabledUntil: inAMinute,
    });
    expect(plan.communicationDisabledUntil).toEqual(inAMinute);
  });

  it('refuses a bot that is itself timed out (it holds nothing but reading)', async () => {
    const error = await discordErrorOf(() =>
      planModifyMember(factsOf(member(USER, []), member(BOT, ['203'], inAMinute)), {
        communicationDisabledUntil: inAMinute,
      }),
    );
    expect(error.code).toBe(50013);
  });

  it('sets a nick with MANAGE_NICKNAMES below the bot, and changes only roles below its highest', async () => {
    expect(planModifyMember(factsOf(member(USER, ['202'])), { nick: 'Nicky', roles: [] })).toEqual({
      nick: 'Nicky',
      roleIds: [],
    });
    const error = await discordErrorOf(() => planModifyMember(factsOf(member(USER, [])), { roles: ['205'] }));
    expect([error.httpStatus, error.code]).toEqual([403, 50013]);
    expect(formErrorsOf(() => planModifyMember(factsOf(member(USER, [])), { roles: ['999'] }))).toEqual(
      oneError(['roles', 0], 'UNKNOWN_ROLE', 'Unknown Role'),
    );
  });

  it('lets AutoMod (no actor) time out a member whatever the ranks, and only that', async () => {
    const plan = planModifyMember(factsOf(member(USER, ['205']), null), {
      communicationDisabledUntil: new Date(NOW.getTime() + 28 * DAY + 5),
    });
    expect(plan.communicationDisabledUntil).toBeInstanceOf(Date);
    const owner = await discordErrorOf(() =>
      planModifyMember(factsOf(member(OWNER, []), null), { communicationDisabledUntil: inAMinute }),
    );
    expect(owner.code).toBe(50013);
    const nick = await discordErrorOf(() => planModifyMember(factsOf(member(USER, []), null), { nick: 'x' }));
    expect(nick.code).toBe(50013);
  });
});
