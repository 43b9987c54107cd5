import { PERMISSION_FLAGS as P } from '@acs/validation';
import {
  compileRule,
  judgeMessage,
  judgedMessageOf,
  planExecutions,
  readAutoModRule,
  type AutoModRule,
} from '../../../src/domain/automod';

const GUILD = '100000000000000000';
const CHANNEL = '200000000000000000';
const ALERTS = '200000000000000001';
const USER = '300000000000000000';
const ROLE = '400000000000000000';
let nextRuleId = 1;

function rule(body: Record<string, unknown>): AutoModRule {
  const fields = readAutoModRule({
    name: 'r',
    event_type: 1,
    enabled: true,
    actions: [{ type: 1 }],
    ...body,
  });
  return { id: String(nextRuleId++), guild_id: GUILD, creator_id: USER, ...fields };
}

const sender = {
  userId: USER,
  roleIds: [] as string[],
  permissions: P.SEND_MESSAGES | P.VIEW_CHANNEL,
  channelId: CHANNEL,
};
const judge = (rules: AutoModRule[], content: string, who = sender) =>
  judgeMessage(rules.map(compileRule), judgedMessageOf(content), who);

describe('judgeMessage', () => {
  const keyword = rule({
    trigger_type: 1,
    trigger_metadata: { keyword_filter: ['cat'], regex_patterns: ['d[o0]g'], allow_list: ['d0g'] },
  });

  it('blocks a keyword and a regex match, excusing the allow list', () => {
    expect(judge([keyword], 'a cat')).toMatchObject({
      blocked: true,
      executions: [{ match: { keyword: 'cat', content: 'cat' } }],
    });
    expect(judge([keyword], 'a DOG')).toMatchObject({
      blocked: true,
      executions: [{ match: { keyword: 'd[o0]g', content: 'DOG' } }],
    });
    expect(judge([keyword], 'a d0g').blocked).toBe(false);
    expect(judge([keyword], 'a catalog').executions).toEqual([]);
  });

  it('evaluates a catastrophic-backtracking pattern in linear time', () => {
    const evil = rule({ trigger_type: 1, trigger_metadata: { regex_patterns: ['(a+)+$', '(a|aa)+b'] } });
    expect(judge([evil], `${'a'.repeat(1999)}!`).blocked).toBe(false);
  });

  it('counts unique user and role mentions past MENTION_SPAM’s limit', () => {
    const spam = rule({ trigger_type: 5, trigger_metadata: { mention_total_limit: 2 } });
    expect(judge([spam], '<@1> <@!1> <@&2>').blocked).toBe(false);
    expect(judge([spam], '<@1> <@3> <@&2>')).toMatchObject({
      blocked: true,
      executions: [{ match: { keyword: null, content: null } }],
    });
  });

  it('matches the built-in presets, with their allow list', () => {
    const preset = rule({ trigger_type: 4, trigger_metadata: { presets: [1], allow_list: ['shitake'] } });
    expect(judge([preset], 'oh SHIT').blocked).toBe(true);
    expect(judge([preset], 'shitake mushrooms').blocked).toBe(false);
  });

  it('exempts ADMINISTRATOR and MANAGE_GUILD, exempt roles and exempt channels, and disabled rules', () => {
    expect(judge([keyword], 'cat', { ...sender, permissions: P.ADMINISTRATOR }).blocked).toBe(false);
    expect(judge([keyword], 'cat', { ...sender, permissions: P.MANAGE_GUILD }).blocked).toBe(false);
    const exempt = rule({
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ['cat'] },
      exempt_roles: [ROLE],
      exempt_channels: [ALERTS],
    });
    expect(judge([exempt], 'cat', { ...sender, roleIds: [ROLE] }).blocked).toBe(false);
    expect(judge([exempt], 'cat', { ...sender, channelId: ALERTS }).blocked).toBe(false);
    expect(judge([exempt], 'cat').blocked).toBe(true);
    expect(judge([{ ...keyword, enabled: false }], 'cat').blocked).toBe(false);
  });

  it('runs every action and takes the longest timeout', () => {
    const r = rule({
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ['cat'] },
      actions: [
        { type: 2, metadata: { channel_id: ALERTS } },
        { type: 3, metadata: { duration_seconds: 60 } },
      ],
    });
    const r2 = rule({
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ['*at'] },
      actions: [{ type: 3, metadata: { duration_seconds: 600 } }],
    });
    const verdict = judge([r, r2], 'cat');
    expect(verdict).toMatchObject({ blocked: false, timeoutSeconds: 600 });
    expect(verdict.executions.map((e) => e.action.type)).toEqual([2, 3, 3]);
  });
});

describe('planExecutions', () => {
  it('posts an alert (type 24) and gives one payload per action, without message_id when blocked', () => {
    const r = rule({
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ['cat'] },
      actions: [{ type: 1 }, { type: 2, metadata: { channel_id: ALERTS } }],
    });
    const verdict = judge([r], 'a cat');
    let id = 900;
    const plan = planExecutions(verdict.executions, {
      guildId: GUILD,
      channelId: CHANNEL,
      author: { id: USER, username: 'u' },
      authorId: USER,
      content: 'a cat',
      nextId: () => String(id++),
      now: new Date(0),
    });
    expect(plan.alerts).toHaveLength(1);
    expect(plan.alerts[0]).toMatchObject({
      id: '900',
      type: 24,
      channel_id: ALERTS,
      embeds: [{ type: 'auto_moderation_message', description: 'a cat' }],
    });
    expect(plan.payloads).toEqual([
      expect.objectContaining({
        action: { type: 1, metadata: {} },
        rule_id: r.id,
        matched_keyword: 'cat',
        matched_content: 'cat',
        content: 'a cat',
      }),
      expect.objectContaining({
        action: { type: 2, metadata: { channel_id: ALERTS } },
        alert_system_message_id: '900',
      }),
    ]);
    expect(plan.payloads.every((p) => !('message_id' in p))).toBe(true);
  });
});
