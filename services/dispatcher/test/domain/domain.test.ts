import { decideInbound } from '../../src/domain/decide-inbound';
import { dispatchPayload } from '../../src/domain/gateway-payload';
import { isPong, pingInteractionBody } from '../../src/domain/interaction-body';
import { DISPATCHED_EVENTS, planEvent } from '../../src/domain/plan-event';
import { ReplayBuffer } from '../../src/domain/replay-buffer';
import { nextAttemptAt, retryDelayMs, RETRY_BUDGET_MS } from '../../src/domain/retry-schedule';
import { SendWindow } from '../../src/domain/send-window';
import { shardOf } from '../../src/domain/shard-of';

describe('decideInbound', () => {
  const identify = JSON.stringify({ op: 2, d: { token: 'Bot abc', intents: 1, properties: {} } });
  it('follows the protocol of each phase', () => {
    expect(decideInbound('hello', identify)).toEqual({
      kind: 'identify',
      identify: {
        token: 'abc',
        prefix: 'Bot',
        intents: 1,
        shard: null,
        capabilities: 0,
        largeThreshold: 50,
      },
    });
    expect(decideInbound('ready', identify)).toMatchObject({ kind: 'close', close: { code: 4005 } });
    expect(decideInbound('hello', '{"op":3,"d":{}}')).toMatchObject({ kind: 'close', close: { code: 4003 } });
    expect(decideInbound('ready', '{"op":3,"d":{}}')).toEqual({ kind: 'presence', d: {} });
    expect(decideInbound('ready', '{"op":31,"d":{"guild_ids":[]}}')).toEqual({ kind: 'ignore' });
    // Op 8 with a payload of the wrong shape: 4001 (D:topics/opcodes-and-status-codes.mdx).
    expect(decideInbound('ready', '{"op":8,"d":{}}')).toMatchObject({ kind: 'close', close: { code: 4001 } });
    expect(decideInbound('ready', '{"op":99}')).toMatchObject({ kind: 'close', close: { code: 4001 } });
    expect(decideInbound('hello', 'nope')).toMatchObject({ kind: 'close', close: { code: 4002 } });
    expect(decideInbound('hello', '{"op":1,"d":7}')).toEqual({ kind: 'heartbeat', seq: 7 });
    expect(decideInbound('hello', '{"op":6,"d":{"token":"t","session_id":"s","seq":3}}')).toEqual({
      kind: 'resume',
      resume: { token: 't', prefix: null, sessionId: 's', seq: 3 },
    });
  });
  it("reads Identify's large_threshold: 50-250, the nearest bound beyond, 50 for anything else", () => {
    const threshold = (value: unknown) => {
      const decision = decideInbound(
        'hello',
        JSON.stringify({ op: 2, d: { token: 't', large_threshold: value } }),
      );
      return decision.kind === 'identify' ? decision.identify.largeThreshold : undefined;
    };
    expect([threshold(120), threshold(250), threshold(251), threshold(7), threshold(-1)]).toEqual([
      120, 250, 250, 50, 50,
    ]);
    expect([threshold(undefined), threshold('99'), threshold(80.5), threshold(null)]).toEqual([
      50, 50, 50, 50,
    ]);
  });
  it('reads the token prefix, intents and shards', () => {
    // Whether intents are missing is the Identify flow's to decide (identify-flow.test.ts).
    expect(decideInbound('hello', '{"op":2,"d":{"token":"Bot t","intents":-1}}')).toMatchObject({
      identify: { token: 't', prefix: 'Bot', intents: null },
    });
    expect(decideInbound('hello', '{"op":2,"d":{"token":"Bearer abc"}}')).toMatchObject({
      identify: { token: 'abc', prefix: 'Bearer', intents: null },
    });
    expect(
      decideInbound('hello', '{"op":6,"d":{"token":"Bearer t","session_id":"s","seq":0}}'),
    ).toMatchObject({
      resume: { token: 't', prefix: 'Bearer' },
    });
    expect(decideInbound('hello', '{"op":2,"d":{"token":"t","capabilities":16381}}')).toEqual({
      kind: 'identify',
      identify: {
        token: 't',
        prefix: null,
        intents: null,
        shard: null,
        capabilities: 16381,
        largeThreshold: 50,
      },
    });
    expect(decideInbound('hello', '{"op":2,"d":{"token":"t","intents":"all"}}')).toMatchObject({
      identify: { intents: null },
    });
    expect(decideInbound('hello', '{"op":2,"d":{"token":"t","intents":0,"shard":[2,2]}}')).toMatchObject({
      close: { code: 4010 },
    });
    expect(decideInbound('hello', '{"op":2,"d":{"token":"t","intents":0,"shard":[1,2]}}')).toMatchObject({
      identify: { shard: [1, 2] },
    });
  });
});

describe('ReplayBuffer', () => {
  it('replays what followed a seq, or nothing when it was forgotten', () => {
    const buffer = new ReplayBuffer(3);
    for (let s = 1; s <= 5; s++) buffer.push(dispatchPayload('X', s, null));
    expect(buffer.after(3, 5)?.map((p) => p.s)).toEqual([4, 5]);
    expect(buffer.after(2, 5)?.map((p) => p.s)).toEqual([3, 4, 5]);
    expect(buffer.after(1, 5)).toBeUndefined();
    expect(buffer.after(5, 5)).toEqual([]);
    expect(buffer.after(6, 5)).toBeUndefined();
  });
});

describe('SendWindow', () => {
  it('allows 120 sends a minute', () => {
    const window = new SendWindow(120, 60_000);
    for (let i = 0; i < 120; i++) expect(window.allow(1000)).toBe(true);
    expect(window.allow(1000)).toBe(false);
    expect(window.allow(61_000)).toBe(true);
  });
});

describe('retry schedule', () => {
  it('grows exponentially with jitter and stops at the 10-minute budget', () => {
    expect(retryDelayMs(1, () => 0)).toBe(500);
    expect(retryDelayMs(1, () => 1)).toBe(1000);
    expect(retryDelayMs(4, () => 1)).toBe(8000);
    expect(retryDelayMs(20, () => 1)).toBe(120_000);
    expect(retryDelayMs(4, () => 1, 0.01)).toBe(80);
    expect(nextAttemptAt(3, 0, 1000, () => 0)).toBe(3000);
    expect(nextAttemptAt(9, 0, RETRY_BUDGET_MS - 1000, () => 1)).toBeUndefined();
  });
});

describe('planEvent', () => {
  const base = { id: 'e1', occurredAt: '2026-01-01T00:00:00.000Z' };
  it('maps authorizations, removals, token resets and permission updates', () => {
    expect(
      planEvent({
        ...base,
        name: 'oauth.application.authorized',
        data: { application_id: '1', integration_type: 0, user_id: '2', guild_id: '3', scopes: ['bot'] },
      }),
    ).toEqual({
      applicationId: '1',
      webhook: {
        type: 'APPLICATION_AUTHORIZED',
        userId: '2',
        guildId: '3',
        data: { integration_type: 0, scopes: ['bot'] },
      },
      gateway: { kind: 'guild-create', guildId: '3' },
    });
    expect(
      planEvent({
        ...base,
        name: 'oauth.application.deauthorized',
        data: { application_id: '1', user_id: '2', guild_id: '3', integration_type: 0 },
      }).gateway,
    ).toEqual({ kind: 'guild-delete', guildId: '3' });
    expect(
      planEvent({ ...base, name: 'oauth.application.bot_token_reset', data: { application_id: '1' } }),
    ).toEqual({ applicationId: '1', webhook: null, gateway: { kind: 'invalidate-sessions' } });
    const permissions = { id: '1', application_id: '1', guild_id: '3', permissions: [] };
    expect(
      planEvent({
        ...base,
        name: 'permissions.application_command_permissions.updated',
        data: permissions,
      }).gateway,
    ).toEqual({
      kind: 'dispatch',
      t: 'APPLICATION_COMMAND_PERMISSIONS_UPDATE',
      d: permissions,
      guildId: '3',
    });
  });

  it('delivers no command events: Discord sends bots none (only permission updates)', () => {
    expect(DISPATCHED_EVENTS.filter((name) => name.startsWith('command-registry.'))).toEqual([]);
  });
});

describe('shardOf', () => {
  it('is (guild_id >> 22) % shards', () => {
    expect(shardOf(String(5n << 22n), 2)).toBe(1);
  });
});

describe('interaction PING', () => {
  it('is shaped as the real one, with a snowflake of its time', () => {
    const now = Date.UTC(2026, 10, 22);
    const ping = JSON.parse(pingInteractionBody('1573845542533201920', now)) as Record<string, unknown>;
    expect(ping).toMatchObject({
      application_id: '1573845542533201920',
      type: 1,
      version: 1,
      entitlements: [],
    });
    expect(Number((BigInt(ping.id as string) >> 22n) + 1420070400000n)).toBe(now);
    expect(JSON.parse(pingInteractionBody('1', now)).token).not.toBe(ping.token);
  });

  it('counts only a JSON body with type 1 as a PONG', () => {
    expect(isPong('{"type":1}')).toBe(true);
    expect(isPong('{"type":1,"data":{}}')).toBe(true);
    for (const answer of ['', 'pong', '{"type":"1"}', '{"type":4}', 'null', '[1]'])
      expect(isPong(answer)).toBe(false);
  });
});
