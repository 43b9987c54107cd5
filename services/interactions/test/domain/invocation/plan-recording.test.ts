import { TIMEOUT_FAILURE } from '../../../src/domain/timeline';
import { createEvent } from '@acs/events';
import {
  planFailures,
  planRecording,
  unfailedOutcomeOf,
  type RecordedInteraction,
} from '../../../src/domain/invocation';

const APP = '1300000000000000001';
const USER = '1300000000000000010';
const CHANNEL = '1300000000000000200';
const GUILD = '1300000000000000100';
const ID = '1300000000000000500';

const interaction = (overrides: Partial<RecordedInteraction> = {}): RecordedInteraction => ({
  id: ID,
  applicationId: APP,
  type: 2,
  userId: USER,
  sessionId: null,
  nonce: 'nonce-1',
  guildId: GUILD,
  channelId: CHANNEL,
  recipientIds: [],
  botPayload: null,
  ...overrides,
});

const AUDIENCE = {
  interaction_id: ID,
  application_id: APP,
  user_id: USER,
  session_id: null,
  nonce: 'nonce-1',
  guild_id: GUILD,
  channel_id: CHANNEL,
};

/** Every planned event passes the catalog's schema (createEvent throws otherwise). */
function expectCatalogued(events: { name: string; data: unknown }[]): void {
  for (const event of events)
    expect(() => createEvent(event.name as never, event.data as never)).not.toThrow();
}

describe('planRecording', () => {
  it('records an invocation pending, with INTERACTION_CREATE only, settling no outcome', () => {
    const plan = planRecording(interaction({ botPayload: { id: ID, token: 'secret' } }));
    expect(plan).toEqual({
      state: 'pending',
      responseType: null,
      response: null,
      originalMessageId: null,
      activityInstanceId: null,
      launchMessage: null,
      events: [
        {
          name: 'interactions.interaction.created',
          data: { ...AUDIENCE, type: 2, bot_payload: { id: ID, token: 'secret' } },
        },
      ],
      outcomeIds: [],
    });
    expectCatalogued(plan.events);
  });

  it('records a launch acknowledged (LAUNCH_ACTIVITY), its message the original, success before the message', () => {
    const message = { id: '1300000000000000600', content: '' };
    const plan = planRecording(interaction({ guildId: null, recipientIds: [USER, '1300000000000000011'] }), {
      activityInstanceId: 'i-1300000000000000500-gc-1300000000000000200',
      messageId: '1300000000000000600',
      message,
    });
    expect(plan).toMatchObject({
      state: 'acknowledged',
      responseType: 12,
      response: { type: 12 },
      originalMessageId: '1300000000000000600',
      activityInstanceId: 'i-1300000000000000500-gc-1300000000000000200',
      launchMessage: { id: '1300000000000000600', body: message },
      outcomeIds: [ID],
    });
    expect(plan.events.map((e) => e.name)).toEqual([
      'interactions.interaction.created',
      'interactions.interaction.succeeded',
      'interactions.message.created',
    ]);
    expect(plan.events[1]?.data).toEqual({ ...AUDIENCE, guild_id: null });
    // The launch message is the channel's (never ephemeral); a DM's members see it.
    expect(plan.events[2]?.data).toEqual({
      application_id: APP,
      channel_id: CHANNEL,
      guild_id: null,
      ephemeral_user_id: null,
      recipient_ids: [USER, '1300000000000000011'],
      message,
    });
    expectCatalogued(plan.events);
  });
});

describe('planFailures', () => {
  it('one INTERACTION_FAILURE per failed interaction, in order, each outcome announced', () => {
    const other = { ...interaction(), id: '1300000000000000501', sessionId: 'session-2', nonce: null };
    const plan = planFailures([interaction(), other], TIMEOUT_FAILURE, 3000);
    const reason = 'the app did not answer within 3 s';
    expect(plan.events).toEqual([
      { name: 'interactions.interaction.failed', data: { ...AUDIENCE, reason_code: 2, reason } },
      {
        name: 'interactions.interaction.failed',
        data: {
          ...AUDIENCE,
          interaction_id: '1300000000000000501',
          session_id: 'session-2',
          nonce: null,
          reason_code: 2,
          reason,
        },
      },
    ]);
    expect(plan.outcomeIds).toEqual([ID, '1300000000000000501']);
    expect(plan.traces[0]).toEqual({
      id: ID,
      outcome: { kind: 'failed', reason_code: 2, reason, cause: { kind: 'timeout' } },
    });
    expectCatalogued(plan.events);
  });

  it('nothing failed: no event, no announcement', () => {
    expect(planFailures([], TIMEOUT_FAILURE, 3000)).toEqual({
      events: [],
      outcomeIds: [],
      traces: [],
      reasons: [],
    });
  });
});

describe('unfailedOutcomeOf', () => {
  it('a pending interaction says how long its deadline has left; any other state is settled', () => {
    expect(unfailedOutcomeOf({ state: 'pending', remainingMs: 1200 })).toEqual({
      kind: 'pending',
      remainingMs: 1200,
    });
    expect(unfailedOutcomeOf({ state: 'acknowledged', remainingMs: 0 })).toEqual({ kind: 'settled' });
    expect(unfailedOutcomeOf({ state: 'failed', remainingMs: 0 })).toEqual({ kind: 'settled' });
    expect(unfailedOutcomeOf(undefined)).toEqual({ kind: 'settled' });
  });
});
