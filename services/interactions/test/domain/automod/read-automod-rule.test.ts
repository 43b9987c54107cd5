import { PERMISSION_FLAGS as P } from '@acs/validation';
import {
  assertMayManageRules,
  assertRuleRoom,
  checkRuleInGuild,
  readAutoModRule,
  type AutoModRule,
} from '../../../src/domain/automod';
import { codesAt, discordErrorOf, formErrorsOf } from '../form-errors-of';

const CHANNEL = '500000000000000001';
const VOICE = '500000000000000002';
const ROLE = '600000000000000001';
const block = { type: 1 };

const keywordRule = (extra: Record<string, unknown> = {}) => ({
  name: 'no cats',
  event_type: 1,
  trigger_type: 1,
  trigger_metadata: { keyword_filter: ['cat'] },
  actions: [block],
  ...extra,
});

describe('readAutoModRule', () => {
  it('reads a KEYWORD rule with its defaults', () => {
    expect(readAutoModRule(keywordRule())).toEqual({
      name: 'no cats',
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ['cat'], regex_patterns: [], allow_list: [] },
      actions: [{ type: 1, metadata: {} }],
      enabled: false,
      exempt_roles: [],
      exempt_channels: [],
    });
  });

  it('requires name, event_type, trigger_type and actions', () => {
    const tree = formErrorsOf(() => readAutoModRule({}));
    for (const key of ['name', 'event_type', 'trigger_type', 'actions'])
      expect(codesAt(tree, [key])).toEqual(['BASE_TYPE_REQUIRED']);
  });

  it('refuses a body that is no object', () => {
    expect(
      codesAt(
        formErrorsOf(() => readAutoModRule([])),
        [],
      ),
    ).toEqual(['MODEL_TYPE_CONVERT']);
  });

  it('holds KEYWORD metadata to its limits', () => {
    const tree = formErrorsOf(() =>
      readAutoModRule(
        keywordRule({
          trigger_metadata: {
            keyword_filter: ['x'.repeat(61), 'dup', 'DUP', '', 7],
            regex_patterns: Array.from({ length: 11 }, (_, i) => `p${i}`),
            allow_list: Array.from({ length: 101 }, (_, i) => `a${i}`),
          },
        }),
      ),
    );
    expect(codesAt(tree, ['trigger_metadata', 'keyword_filter', 0])).toEqual(['BASE_TYPE_BAD_LENGTH']);
    expect(codesAt(tree, ['trigger_metadata', 'keyword_filter', 2])).toEqual([
      'SET_TYPE_ALREADY_CONTAINS_VALUE',
    ]);
    expect(codesAt(tree, ['trigger_metadata', 'keyword_filter', 3])).toEqual(['BASE_TYPE_BAD_LENGTH']);
    expect(codesAt(tree, ['trigger_metadata', 'keyword_filter', 4])).toEqual(['BASE_TYPE_STRING']);
    expect(codesAt(tree, ['trigger_metadata', 'regex_patterns'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(tree, ['trigger_metadata', 'allow_list'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
  });

  it('accepts 1,000 keywords and refuses 1,001', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);
    expect(
      readAutoModRule(keywordRule({ trigger_metadata: { keyword_filter: words(1000) } })).trigger_metadata
        .keyword_filter,
    ).toHaveLength(1000);
    const tree = formErrorsOf(() =>
      readAutoModRule(keywordRule({ trigger_metadata: { keyword_filter: words(1001) } })),
    );
    expect(codesAt(tree, ['trigger_metadata', 'keyword_filter'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
  });

  it('refuses regex patterns RE2 cannot run in linear time or at all', () => {
    const tree = formErrorsOf(() =>
      readAutoModRule(
        keywordRule({
          trigger_metadata: {
            regex_patterns: ['(a)\\1', '(?=x)y', '((a{20}){20}){20}', '(a+)+$', 'x'.repeat(261)],
          },
        }),
      ),
    );
    expect(codesAt(tree, ['trigger_metadata', 'regex_patterns', 0])).toEqual([
      'AUTO_MODERATION_INVALID_REGEX',
    ]);
    expect(codesAt(tree, ['trigger_metadata', 'regex_patterns', 1])).toEqual([
      'AUTO_MODERATION_INVALID_REGEX',
    ]);
    expect(codesAt(tree, ['trigger_metadata', 'regex_patterns', 2])).toEqual([
      'AUTO_MODERATION_INVALID_REGEX',
    ]);
    // Backtracking-prone for a backtracking engine, linear for RE2: accepted.
    expect(codesAt(tree, ['trigger_metadata', 'regex_patterns', 3])).toEqual([]);
    expect(codesAt(tree, ['trigger_metadata', 'regex_patterns', 4])).toEqual(['BASE_TYPE_BAD_LENGTH']);
  });

  it('reads MENTION_SPAM and KEYWORD_PRESET metadata with their bounds', () => {
    expect(
      readAutoModRule({ ...keywordRule(), trigger_type: 5, trigger_metadata: { mention_total_limit: 50 } })
        .trigger_metadata,
    ).toEqual({ mention_total_limit: 50, mention_raid_protection_enabled: false });
    const spam = formErrorsOf(() =>
      readAutoModRule({
        ...keywordRule(),
        trigger_type: 5,
        trigger_metadata: { mention_total_limit: 51, mention_raid_protection_enabled: 'y' },
      }),
    );
    expect(codesAt(spam, ['trigger_metadata', 'mention_total_limit'])).toEqual(['NUMBER_TYPE_MAX']);
    expect(codesAt(spam, ['trigger_metadata', 'mention_raid_protection_enabled'])).toEqual([
      'BASE_TYPE_BOOLEAN',
    ]);
    const preset = formErrorsOf(() =>
      readAutoModRule({ ...keywordRule(), trigger_type: 4, trigger_metadata: { presets: [1, 1, 4] } }),
    );
    expect(codesAt(preset, ['trigger_metadata', 'presets', 1])).toEqual(['SET_TYPE_ALREADY_CONTAINS_VALUE']);
    expect(codesAt(preset, ['trigger_metadata', 'presets', 2])).toEqual(['BASE_TYPE_CHOICES']);
  });

  it('reads actions with their metadata and refuses TIMEOUT outside KEYWORD and MENTION_SPAM', () => {
    const rule = readAutoModRule(
      keywordRule({
        actions: [
          { type: 1, metadata: { custom_message: 'no' } },
          { type: 2, metadata: { channel_id: CHANNEL } },
          { type: 3, metadata: { duration_seconds: 60 } },
        ],
      }),
    );
    expect(rule.actions.map((a) => a.metadata)).toEqual([
      { custom_message: 'no' },
      { channel_id: CHANNEL },
      { duration_seconds: 60 },
    ]);
    const tree = formErrorsOf(() =>
      readAutoModRule({
        ...keywordRule(),
        trigger_type: 4,
        trigger_metadata: { presets: [1] },
        actions: [
          { type: 3, metadata: { duration_seconds: 60 } },
          { type: 1, metadata: { custom_message: 'x'.repeat(151) } },
          { type: 2, metadata: {} },
          { type: 3, metadata: { duration_seconds: 2419201 } },
          { type: 9 },
        ],
      }),
    );
    expect(codesAt(tree, ['actions', 1, 'metadata', 'custom_message'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(tree, ['actions', 2, 'metadata', 'channel_id'])).toEqual(['BASE_TYPE_REQUIRED']);
    expect(codesAt(tree, ['actions', 3, 'metadata', 'duration_seconds'])).toEqual(['NUMBER_TYPE_MAX']);
    expect(codesAt(tree, ['actions', 4, 'type'])).toEqual(['BASE_TYPE_CHOICES']);
    expect(codesAt(tree, ['actions', 0, 'type'])).toEqual([
      'AUTO_MODERATION_INVALID_ACTION_FOR_TRIGGER_TYPE',
    ]);
  });

  it('refuses 0 or 6 actions, 21 exempt roles, 51 exempt channels and ids past 2^63-1', () => {
    const tree = formErrorsOf(() =>
      readAutoModRule(
        keywordRule({
          actions: [],
          exempt_roles: Array.from({ length: 21 }, (_, i) => String(600000000000000000n + BigInt(i))),
          exempt_channels: Array.from({ length: 51 }, (_, i) => String(500000000000000000n + BigInt(i))),
        }),
      ),
    );
    expect(codesAt(tree, ['actions'])).toEqual(['BASE_TYPE_MIN_LENGTH']);
    expect(codesAt(tree, ['exempt_roles'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(tree, ['exempt_channels'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
    const ids = formErrorsOf(() =>
      readAutoModRule(keywordRule({ exempt_roles: ['9223372036854775808', ROLE, ROLE] })),
    );
    expect(codesAt(ids, ['exempt_roles', 0])).not.toEqual([]);
    expect(codesAt(ids, ['exempt_roles', 2])).toEqual(['SET_TYPE_ALREADY_CONTAINS_VALUE']);
    const six = formErrorsOf(() =>
      readAutoModRule(keywordRule({ actions: Array.from({ length: 6 }, () => block) })),
    );
    expect(codesAt(six, ['actions'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
  });

  it('updates only what the body names and keeps the trigger type', () => {
    const existing: AutoModRule = {
      id: '1',
      guild_id: '2',
      creator_id: '3',
      ...readAutoModRule(keywordRule({ enabled: true })),
    };
    const next = readAutoModRule(
      { name: 'renamed', trigger_type: 5, trigger_metadata: { keyword_filter: ['dog'] } },
      existing,
    );
    expect(next).toMatchObject({
      name: 'renamed',
      trigger_type: 1,
      enabled: true,
      actions: existing.actions,
    });
    expect(next.trigger_metadata.keyword_filter).toEqual(['dog']);
    // An empty body changes nothing.
    expect(readAutoModRule({}, existing)).toEqual(readAutoModRule(keywordRule({ enabled: true })));
  });
});

describe('rule checks against the guild', () => {
  const guild = {
    roleIds: new Set([ROLE]),
    channelTypes: new Map([
      [CHANNEL, 0],
      [VOICE, 2],
    ]),
  };

  it('refuses another guild’s roles and channels, and a voice alert channel', () => {
    const fields = readAutoModRule(
      keywordRule({
        exempt_roles: [ROLE, '600000000000000009'],
        exempt_channels: ['500000000000000009'],
        actions: [
          { type: 2, metadata: { channel_id: VOICE } },
          { type: 2, metadata: { channel_id: '500000000000000008' } },
        ],
      }),
    );
    const tree = formErrorsOf(() => checkRuleInGuild(fields, guild));
    expect(codesAt(tree, ['exempt_roles', 1])).toEqual(['UNKNOWN_ROLE']);
    expect(codesAt(tree, ['exempt_channels', 0])).toEqual(['UNKNOWN_CHANNEL']);
    expect(codesAt(tree, ['actions', 0, 'metadata', 'channel_id'])).toEqual([
      'AUTO_MODERATION_ALERT_CHANNEL_NOT_TEXT',
    ]);
    expect(codesAt(tree, ['actions', 1, 'metadata', 'channel_id'])).toEqual(['UNKNOWN_CHANNEL']);
  });

  it('allows 6 KEYWORD rules and 1 of the others', () => {
    const rules = (type: 1 | 3 | 4 | 5, n: number) =>
      Array.from({ length: n }, () => ({ trigger_type: type }));
    expect(() => assertRuleRoom(1, rules(1, 5))).not.toThrow();
    expect(
      codesAt(
        formErrorsOf(() => assertRuleRoom(1, rules(1, 6))),
        ['trigger_type'],
      ),
    ).toEqual(['AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED']);
    for (const type of [3, 4, 5] as const) {
      expect(() => assertRuleRoom(type, rules(1, 6))).not.toThrow();
      expect(() => assertRuleRoom(type, rules(type, 1))).toThrow();
    }
  });

  it('needs MANAGE_GUILD, and MODERATE_MEMBERS for a TIMEOUT action', () => {
    expect(
      discordErrorOf(() => assertMayManageRules({ isMember: false, permissions: P.MANAGE_GUILD })).code,
    ).toBe(50001);
    expect(discordErrorOf(() => assertMayManageRules({ isMember: true, permissions: 0n })).code).toBe(50013);
    expect(() => assertMayManageRules({ isMember: true, permissions: P.MANAGE_GUILD })).not.toThrow();
    expect(
      discordErrorOf(() =>
        assertMayManageRules({ isMember: true, permissions: P.MANAGE_GUILD }, [{ type: 3 }]),
      ).code,
    ).toBe(50013);
    expect(() =>
      assertMayManageRules({ isMember: true, permissions: P.ADMINISTRATOR }, [{ type: 3 }]),
    ).not.toThrow();
  });
});
