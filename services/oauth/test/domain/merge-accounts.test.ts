import { DiscordError, InvalidFormBodyError } from '@acs/discord-errors';
import { banInForce, renderBan, validateBanBody } from '../../src/domain/bans';
import {
  planMerge,
  planUnmerge,
  readMergeCredential,
  type AccountFacts,
  type MergeFacts,
} from '../../src/domain/merge-accounts';
import { validateUnmergeBotBody } from '../../src/domain/provisional-accounts';

const APP = '1300000000000000001';
const OTHER_APP = '1300000000000000002';
const NOW = new Date('2026-11-28T06:00:00.000Z');

const provisional = (over: Partial<AccountFacts> = {}): AccountFacts => ({
  userId: '1300000000000000010',
  provisionalApplicationId: APP,
  banRestricted: false,
  ...over,
});
const full = (over: Partial<AccountFacts> = {}): AccountFacts => ({
  userId: '1300000000000000020',
  provisionalApplicationId: null,
  banRestricted: false,
  ...over,
});
const facts = (over: Partial<MergeFacts> = {}): MergeFacts => ({
  identity: { authType: 'DISCORD_BOT', externalUserId: 'p1' },
  source: provisional(),
  destination: full(),
  destinationHasIdentity: false,
  ...over,
});

function codeOf(run: () => unknown): [number, number] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DiscordError);
    return [(error as DiscordError).httpStatus, (error as DiscordError).code];
  }
  throw new Error('accepted');
}

describe('readMergeCredential', () => {
  it('is none without either parameter, and both when both are there', () => {
    expect(readMergeCredential({ grant_type: 'authorization_code' })).toBeNull();
    expect(
      readMergeCredential({ external_auth_type: 'STEAM_SESSION_TICKET', external_auth_token: 't' }),
    ).toEqual({ externalAuthType: 'STEAM_SESSION_TICKET', externalAuthToken: 't' });
  });

  it.each([
    [{ external_auth_type: 'STEAM_SESSION_TICKET' }],
    [{ external_auth_token: 't' }],
    [{ external_auth_type: 'NOPE', external_auth_token: 't' }],
    [{ external_auth_type: 'OIDC', external_auth_token: '' }],
    [{ external_auth_type: 'OIDC', external_auth_token: 'x'.repeat(10241) }],
  ])('refuses %j with 403 / 50025', (params) => {
    expect(codeOf(() => readMergeCredential(params))).toEqual([403, 50025]);
  });
});

describe('planMerge', () => {
  it('merges a provisional account of the application into a full account', () => {
    expect(planMerge(facts(), APP)).toEqual({
      kind: 'merge',
      sourceUserId: '1300000000000000010',
      destinationUserId: '1300000000000000020',
    });
  });

  it('links an identity that has no account yet, and does nothing for one already the destination’s', () => {
    expect(planMerge(facts({ source: undefined }), APP)).toEqual({
      kind: 'link',
      destinationUserId: '1300000000000000020',
    });
    expect(planMerge(facts({ source: full() }), APP)).toEqual({ kind: 'none' });
  });

  it('refuses in the order of the facts: 50025, 530014, 530016, 530017, 530023', () => {
    expect(codeOf(() => planMerge(facts({ identity: undefined, source: undefined }), APP))).toEqual([
      403, 50025,
    ]);
    expect(codeOf(() => planMerge(facts({ source: full({ userId: '9' }) }), APP))).toEqual([400, 530014]);
    expect(
      codeOf(() => planMerge(facts({ source: provisional({ provisionalApplicationId: OTHER_APP }) }), APP)),
    ).toEqual([400, 530014]);
    expect(
      codeOf(() => planMerge(facts({ destination: full({ provisionalApplicationId: APP }) }), APP)),
    ).toEqual([400, 530016]);
    expect(codeOf(() => planMerge(facts({ source: provisional({ banRestricted: true }) }), APP))).toEqual([
      400, 530017,
    ]);
    expect(codeOf(() => planMerge(facts({ destinationHasIdentity: true }), APP))).toEqual([400, 530023]);
    // A banned source into a provisional destination: the destination's refusal comes first.
    expect(
      codeOf(() =>
        planMerge(
          facts({
            source: provisional({ banRestricted: true }),
            destination: full({ provisionalApplicationId: APP }),
          }),
          APP,
        ),
      ),
    ).toEqual([400, 530016]);
  });
});

describe('planUnmerge', () => {
  it('gives the identity a new provisional account named as the full account', () => {
    expect(planUnmerge({ account: { ...full(), globalName: 'Dana' } }, APP, '1300000000000000099')).toEqual({
      fullUserId: '1300000000000000020',
      user: {
        id: '1300000000000000099',
        username: expect.stringMatching(/^provisional_/),
        globalName: 'Dana',
        applicationId: APP,
      },
      restrictedByBanOf: null,
    });
    expect(
      planUnmerge(
        { account: { ...full(), globalName: null } },
        APP,
        '1300000000000000099',
        '1300000000000000020',
      ).restrictedByBanOf,
    ).toBe('1300000000000000020');
  });

  it('is 404 / 10013 without an identity and 400 / 50229 for a provisional account', () => {
    expect(codeOf(() => planUnmerge({ account: undefined }, APP, '1'))).toEqual([404, 10013]);
    expect(codeOf(() => planUnmerge({ account: { ...provisional(), globalName: null } }, APP, '1'))).toEqual([
      400, 50229,
    ]);
  });

  it('reads the bot unmerge body: external_user_id 1-1024, required', () => {
    expect(validateUnmergeBotBody({ external_user_id: 'p1' })).toBe('p1');
    for (const body of [
      {},
      { external_user_id: '' },
      { external_user_id: 'x'.repeat(1025) },
      { external_user_id: 'a\u0000' },
    ]) {
      expect(() => validateUnmergeBotBody(body)).toThrow(InvalidFormBodyError);
    }
  });
});

describe('bans', () => {
  it('reads reason and until (ISO 8601 with a zone, in the future)', () => {
    expect(validateBanBody({}, NOW)).toEqual({ reason: null, until: null });
    expect(validateBanBody({ reason: 'cheating', until: '2026-12-01T00:00:00Z' }, NOW)).toEqual({
      reason: 'cheating',
      until: new Date('2026-12-01T00:00:00Z'),
    });
    expect(validateBanBody({ reason: null, until: null }, NOW)).toEqual({ reason: null, until: null });
  });

  it.each([
    [{ until: 'tomorrow' }, 'until', 'DATE_TYPE_PARSE'],
    [{ until: '2026-12-01' }, 'until', 'DATE_TYPE_PARSE'],
    [{ until: '2026-13-45T99:00:00Z' }, 'until', 'DATE_TYPE_PARSE'],
    [{ until: '2020-01-01T00:00:00Z' }, 'until', 'BAN_UNTIL_IN_PAST'],
    [{ until: 5 }, 'until', 'BASE_TYPE_STRING'],
    [{ reason: 'r'.repeat(513) }, 'reason', undefined],
    [{ reason: 'a\u0000' }, 'reason', undefined],
  ])('refuses %j at %s', (body, field, code) => {
    try {
      validateBanBody(body, NOW);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidFormBodyError);
      const tree = (error as InvalidFormBodyError).errors as Record<string, { _errors: { code: string }[] }>;
      expect(tree).toHaveProperty(field);
      if (code) expect(tree[field]!._errors[0]!.code).toBe(code);
    }
  });

  it('is in force while permanent or until its end', () => {
    expect(banInForce(null, NOW)).toBe(true);
    expect(banInForce(new Date(NOW.getTime() + 1), NOW)).toBe(true);
    expect(banInForce(NOW, NOW)).toBe(false);
    expect(renderBan('7', { reason: null, until: new Date('2026-12-01T00:00:00Z') })).toEqual({
      user_id: '7',
      reason: null,
      until: '2026-12-01T00:00:00.000Z',
    });
  });
});
