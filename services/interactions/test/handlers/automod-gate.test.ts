import { DiscordError, UnknownResourceError } from '@acs/discord-errors';
import { PERMISSION_FLAGS as P } from '@acs/validation';
import { compileRule, readAutoModRule, type AutoModRule } from '../../src/domain/automod';
import { passAutoMod, type AutoModGateDeps } from '../../src/handlers/automod-gate';
import type { AutoModStore } from '../../src/store/automod-store';
import type { ChannelPlace } from '../../src/store/channel-message-store';

// AutoMod at the door of Create Message: the TIMEOUT action times the sender out through
// permissions (a fake here) before anything is written, for the longest matching duration.

const GUILD = '100000000000000000';
const CHANNEL = '200000000000000000';
const USER = '300000000000000000';
let nextRuleId = 1;

function rule(actions: unknown[], keyword: string): AutoModRule {
  const fields = readAutoModRule({
    name: 'r',
    event_type: 1,
    enabled: true,
    trigger_type: 1,
    trigger_metadata: { keyword_filter: [keyword] },
    actions,
  });
  return { id: String(nextRuleId++), guild_id: GUILD, creator_id: USER, ...fields };
}

const place: ChannelPlace = {
  channelId: CHANNEL,
  caller: { userId: USER, applicationId: null },
  access: {
    guildId: GUILD,
    isMember: true,
    permissions: P.VIEW_CHANNEL | P.SEND_MESSAGES,
    recipientIds: [],
    roleIds: [],
  },
};

function gateOf(rules: AutoModRule[], timeOut: AutoModGateDeps['permissions']['timeOutMember']) {
  const recorded: unknown[] = [];
  let id = 1;
  const automod = {
    rulesOf: async () => rules.map(compileRule),
    nextId: () => String(900000000000000000n + BigInt(id++)),
    recordExecutions: async (plan: unknown) => {
      recorded.push(plan);
    },
  } as unknown as AutoModStore;
  return { deps: { automod, permissions: { timeOutMember: timeOut } }, recorded };
}

describe('passAutoMod and TIMEOUT', () => {
  it('times the sender out for the longest matching duration, from now, and keeps the message', async () => {
    const calls: Array<{ guildId: string; userId: string; until: Date }> = [];
    const { deps } = gateOf(
      [
        rule([{ type: 3, metadata: { duration_seconds: 60 } }], 'cat*'),
        rule([{ type: 3, metadata: { duration_seconds: 600 } }], 'cats'),
      ],
      async (guildId, userId, until) => {
        calls.push({ guildId, userId, until });
      },
    );
    const before = Date.now();
    const outcome = await passAutoMod(deps, place, { id: USER }, 'cats');
    expect(outcome.alsoWrite).toBeInstanceOf(Function);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ guildId: GUILD, userId: USER });
    expect(calls[0]!.until.getTime()).toBeGreaterThanOrEqual(before + 600_000);
    expect(calls[0]!.until.getTime()).toBeLessThanOrEqual(Date.now() + 600_000);
  });

  it('times out before refusing a blocked message', async () => {
    const order: string[] = [];
    const { deps } = gateOf(
      [rule([{ type: 1 }, { type: 3, metadata: { duration_seconds: 60 } }], 'dog')],
      async () => {
        order.push('timeout');
      },
    );
    const blocked = await passAutoMod(deps, place, { id: USER }, 'dog').catch((error: DiscordError) => error);
    expect(blocked).toBeInstanceOf(DiscordError);
    expect((blocked as DiscordError).code).toBe(200000);
    expect(order).toEqual(['timeout']);
  });

  it('calls nothing without a TIMEOUT action, and leaves a sender permissions refuses as they are', async () => {
    let called = 0;
    const none = gateOf([rule([{ type: 1 }], 'eel')], async () => {
      called += 1;
    });
    await expect(passAutoMod(none.deps, place, { id: USER }, 'fine words')).resolves.toEqual({});
    expect(called).toBe(0);

    const gone = gateOf([rule([{ type: 3, metadata: { duration_seconds: 60 } }], 'eel')], async () => {
      throw new UnknownResourceError(10007, 'Unknown Member');
    });
    await expect(passAutoMod(gone.deps, place, { id: USER }, 'eel')).resolves.toHaveProperty('alsoWrite');
  });

  it('lets a transport failure through (nothing is written)', async () => {
    const down = gateOf([rule([{ type: 3, metadata: { duration_seconds: 60 } }], 'eel')], async () => {
      throw new DiscordError(503, 0, 'Service Unavailable');
    });
    await expect(passAutoMod(down.deps, place, { id: USER }, 'eel')).rejects.toMatchObject({
      httpStatus: 503,
    });
  });
});
