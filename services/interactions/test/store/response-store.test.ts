import { Client } from 'pg';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { DB_SCHEMA } from '../../src/config';
import { validateCallback, type ValidCallback } from '../../src/domain/callbacks';
import { OUTCOME_CHANNEL } from '../../src/store/write-events';
import {
  BOT,
  CHANNEL,
  GUILD,
  USER,
  eventsOf,
  openResponseStores,
  recordInteraction,
  type ResponseContext,
} from './response-fixtures';

let ctx: ResponseContext;
beforeAll(async () => {
  ctx = await openResponseStores();
});
afterAll(async () => ctx?.close());

const COMMAND = { interactionType: 2, applicationFlags: 1 << 17 };
const reply = (content: string, flags = 0): ValidCallback =>
  validateCallback({ type: 4, data: { content, flags } }, COMMAND);

async function rowOf(id: string) {
  const { rows } = await ctx.pool.query<{
    state: string;
    response_type: number | null;
    response: unknown;
    original_message_id: string | null;
    activity_instance_id: string | null;
  }>(
    `SELECT state, response_type, response, original_message_id::text, activity_instance_id
       FROM interaction WHERE id = $1`,
    [id],
  );
  return rows[0];
}

async function messageRowsOf(interactionId: string) {
  const { rows } = await ctx.pool.query<{
    id: string;
    is_original: boolean;
    flags: number;
    ephemeral_user_id: string | null;
    guild_id: string | null;
    channel_id: string;
    body: Record<string, unknown>;
  }>(
    `SELECT id::text, is_original, flags, ephemeral_user_id::text, guild_id::text, channel_id::text, body
       FROM message WHERE interaction_id = $1 ORDER BY id`,
    [interactionId],
  );
  return rows;
}

describe('acknowledge', () => {
  it('CHANNEL_MESSAGE_WITH_SOURCE: state, response, the message and its events, in one go', async () => {
    const interaction = await recordInteraction(ctx, { sessionId: 'session-1', nonce: 'n-1' });
    const made = await ctx.responses.acknowledge(await interaction.record(), reply('pong'), BOT);

    const messages = await messageRowsOf(interaction.id);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      id: made.message?.id,
      is_original: true,
      flags: 0,
      ephemeral_user_id: null,
      guild_id: GUILD,
      channel_id: CHANNEL,
    });
    expect(messages[0]?.body).toEqual(made.message);
    expect(made.message).toMatchObject({
      type: 20,
      content: 'pong',
      author: BOT,
      webhook_id: made.message?.application_id,
    });
    expect(await rowOf(interaction.id)).toEqual({
      state: 'acknowledged',
      response_type: 4,
      response: { type: 4, data: { content: 'pong', embeds: [], tts: false, flags: 0, components: [] } },
      original_message_id: made.message?.id,
      activity_instance_id: null,
    });

    const audience = {
      interaction_id: interaction.id,
      application_id: made.message?.application_id,
      user_id: USER.id,
      session_id: 'session-1',
      nonce: 'n-1',
      guild_id: GUILD,
      channel_id: CHANNEL,
    };
    expect(await eventsOf(ctx, { interactionId: interaction.id })).toEqual([
      { subject: 'acs.interactions.interaction.succeeded', data: audience },
      {
        subject: 'acs.interactions.message.created',
        data: {
          application_id: audience.application_id,
          channel_id: CHANNEL,
          guild_id: GUILD,
          ephemeral_user_id: null,
          recipient_ids: [],
          message: made.message,
        },
      },
    ]);
  });

  it('DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: a loading message, ephemeral to the invoker in a DM', async () => {
    const interaction = await recordInteraction(ctx, { guildId: null, recipientIds: [USER.id, BOT.id] });
    const defer = validateCallback({ type: 5, data: { flags: 64 } }, COMMAND);
    const made = await ctx.responses.acknowledge(await interaction.record(), defer, BOT);
    expect(made.message).toMatchObject({ content: '', flags: 128 | 64 });
    expect(await messageRowsOf(interaction.id)).toMatchObject([
      { flags: 192, ephemeral_user_id: USER.id, guild_id: null, is_original: true },
    ]);
    const created = (await eventsOf(ctx, { interactionId: interaction.id })).find((e) =>
      e.subject.endsWith('message.created'),
    );
    expect(created?.data).toMatchObject({
      guild_id: null,
      ephemeral_user_id: USER.id,
      recipient_ids: [USER.id, BOT.id],
    });
  });

  it('APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: the choices to the user, no message', async () => {
    const interaction = await recordInteraction(ctx, { type: 4 });
    const answer = validateCallback(
      { type: 8, data: { choices: [{ name: 'Red', value: 'red' }] } },
      { interactionType: 4, applicationFlags: 0, focusedOptionType: 3 },
    );
    expect(await ctx.responses.acknowledge(await interaction.record(), answer, undefined)).toEqual({});
    expect(await messageRowsOf(interaction.id)).toEqual([]);
    expect((await eventsOf(ctx, { interactionId: interaction.id })).map((e) => e.subject)).toEqual([
      'acs.interactions.interaction.succeeded',
      'acs.interactions.autocomplete.answered',
    ]);
    const answered = (await eventsOf(ctx, { interactionId: interaction.id }))[1];
    expect(answered?.data.choices).toEqual([{ name: 'Red', value: 'red' }]);
  });

  it('LAUNCH_ACTIVITY: the Activity instance, no message', async () => {
    const interaction = await recordInteraction(ctx);
    const made = await ctx.responses.acknowledge(await interaction.record(), { type: 12 }, BOT);
    expect(made).toEqual({ activityInstanceId: `i-${interaction.id}-gc-${GUILD}-${CHANNEL}` });
    expect(await rowOf(interaction.id)).toMatchObject({
      state: 'acknowledged',
      response_type: 12,
      activity_instance_id: made.activityInstanceId,
    });
  });

  it('announces the outcome on the outcome channel at commit', async () => {
    const listener = new Client({ connectionString: serviceDatabaseUrl(ctx.db.url, DB_SCHEMA) });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (n) => {
        if (n.channel === OUTCOME_CHANNEL && n.payload) heard.push(n.payload);
      });
      await listener.query(`LISTEN ${OUTCOME_CHANNEL}`);
      const interaction = await recordInteraction(ctx);
      await ctx.responses.acknowledge(await interaction.record(), reply('pong'), BOT);
      for (let i = 0; i < 50 && !heard.includes(interaction.id); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(heard).toContain(interaction.id);
    } finally {
      await listener.end();
    }
  });

  it('a second callback is 400 / 40060 and writes nothing', async () => {
    const interaction = await recordInteraction(ctx);
    const record = await interaction.record();
    await ctx.responses.acknowledge(record, reply('first'), BOT);
    const before = await eventsOf(ctx, { interactionId: interaction.id });
    await expect(ctx.responses.acknowledge(record, reply('second'), BOT)).rejects.toMatchObject({
      httpStatus: 400,
      code: 40060,
      message: 'Interaction has already been acknowledged',
    });
    expect(await messageRowsOf(interaction.id)).toHaveLength(1);
    expect(await eventsOf(ctx, { interactionId: interaction.id })).toEqual(before);
  });

  it('racing callbacks: exactly one wins, every other gets 40060', async () => {
    const interaction = await recordInteraction(ctx);
    const record = await interaction.record();
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => ctx.responses.acknowledge(record, reply(`answer ${i}`), BOT)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 40060 });
    }
    expect(await messageRowsOf(interaction.id)).toHaveLength(1);
    const subjects = (await eventsOf(ctx, { interactionId: interaction.id })).map((e) => e.subject);
    expect(subjects.filter((s) => s.endsWith('interaction.succeeded'))).toHaveLength(1);
  });

  it('after the deadline, or once failed, a callback is 404 / 10062 and writes nothing', async () => {
    const late = await recordInteraction(ctx, { deadlineMs: -1 });
    await expect(ctx.responses.acknowledge(await late.record(), reply('late'), BOT)).rejects.toMatchObject({
      httpStatus: 404,
      code: 10062,
      message: 'Unknown interaction',
    });
    const failed = await recordInteraction(ctx, { state: 'failed' });
    await expect(ctx.responses.acknowledge(await failed.record(), reply('late'), BOT)).rejects.toMatchObject({
      code: 10062,
    });
    for (const id of [late.id, failed.id]) {
      expect(await rowOf(id)).toMatchObject({ response_type: null, original_message_id: null });
      expect(await messageRowsOf(id)).toEqual([]);
      expect(await eventsOf(ctx, { interactionId: id })).toEqual([]);
    }
  });

  it('a callback racing the deadline: either it wins or the failure does, never both', async () => {
    // The deadline's own statement (the invocation path's): fail what is still pending.
    const fail = (id: string) =>
      ctx.pool.query(
        `UPDATE interaction SET state = 'failed', reason_code = 2 WHERE id = $1 AND state = 'pending'`,
        [id],
      );
    for (let i = 0; i < 10; i++) {
      const interaction = await recordInteraction(ctx, { deadlineMs: 30 });
      const record = await interaction.record();
      await new Promise((r) => setTimeout(r, i * 5));
      const [ack, failure] = await Promise.allSettled([
        ctx.responses.acknowledge(record, reply('x'), BOT),
        fail(interaction.id),
      ]);
      const failedRows = failure.status === 'fulfilled' ? failure.value.rowCount : 0;
      const row = await rowOf(interaction.id);
      if (ack.status === 'fulfilled') {
        expect(failedRows).toBe(0);
        expect(row?.state).toBe('acknowledged');
        expect(await messageRowsOf(interaction.id)).toHaveLength(1);
      } else {
        expect(ack.reason).toMatchObject({ code: 10062 });
        expect(failedRows).toBe(1);
        expect(row?.state).toBe('failed');
        expect(await messageRowsOf(interaction.id)).toEqual([]);
      }
    }
  });
});
