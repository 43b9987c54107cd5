import {
  AUTOMOD_EVENTS,
  AUTO_MODERATION_CONFIGURATION,
  AUTO_MODERATION_EXECUTION,
  isAutoModEvent,
  planAutoModEvent,
  type AutoModEvent,
} from '../../src/domain/plan-automod-event';
import { botSessionReceives } from '../../src/domain/gateway-route';
import { DISPATCHED_EVENTS } from '../../src/domain/plan-event';

const GUILD = '1800000000000000004';
const BOT = '1800000000000000001';
const rule = { id: '1800000000000000030', guild_id: GUILD, name: 'no cats' };
const execution = {
  guild_id: GUILD,
  action: { type: 1, metadata: {} },
  rule_id: rule.id,
  rule_trigger_type: 1,
  user_id: '1800000000000000002',
  channel_id: '1800000000000000005',
  content: 'a cat',
  matched_keyword: 'cat',
  matched_content: 'cat',
};

function event<E extends AutoModEvent>(name: E['name'], data: E['data']): AutoModEvent {
  return { id: 'e1', name, occurredAt: '2026-01-01T00:00:00.000Z', data } as AutoModEvent;
}

describe('planAutoModEvent', () => {
  it('is dispatched for every AutoMod event', () => {
    expect(DISPATCHED_EVENTS).toEqual(expect.arrayContaining([...AUTOMOD_EVENTS]));
    expect(isAutoModEvent(event('interactions.automod_rule.created', { guild_id: GUILD, rule }))).toBe(true);
  });

  it('sends rule events with AUTO_MODERATION_CONFIGURATION to each managing bot once', () => {
    const routes = planAutoModEvent(event('interactions.automod_rule.deleted', { guild_id: GUILD, rule }), [
      BOT,
      BOT,
    ]);
    expect(routes).toEqual([
      {
        to: 'bot',
        applicationId: BOT,
        message: {
          kind: 'dispatch',
          t: 'AUTO_MODERATION_RULE_DELETE',
          d: rule,
          guildId: GUILD,
          intent: AUTO_MODERATION_CONFIGURATION,
        },
      },
    ]);
    expect(
      planAutoModEvent(event('interactions.automod_rule.created', { guild_id: GUILD, rule }), []),
    ).toEqual([]);
  });

  it('sends executions with AUTO_MODERATION_EXECUTION, blanked for a session without MESSAGE_CONTENT', () => {
    const [route] = planAutoModEvent(event('interactions.automod.action_executed', execution), [BOT]);
    expect(route).toMatchObject({
      message: {
        t: 'AUTO_MODERATION_ACTION_EXECUTION',
        d: execution,
        intent: AUTO_MODERATION_EXECUTION,
        withoutContent: { ...execution, content: '', matched_content: '' },
      },
    });
    const message = route?.to === 'bot' && route.message.kind === 'dispatch' ? route.message : undefined;
    expect(
      message && botSessionReceives({ shard: null, intents: AUTO_MODERATION_CONFIGURATION }, message),
    ).toBe(false);
    expect(message && botSessionReceives({ shard: null, intents: AUTO_MODERATION_EXECUTION }, message)).toBe(
      true,
    );
  });
});
