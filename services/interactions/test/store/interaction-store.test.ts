import { TIMEOUT_FAILURE, deliveryFailure } from '../../src/domain/timeline';
import { Client } from 'pg';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { DB_SCHEMA } from '../../src/config';
import { newInteraction, nextId, openInteractionStore, outboxEvents } from './open-interaction-store';

let open: Awaited<ReturnType<typeof openInteractionStore>>;

beforeAll(async () => {
  // A deadline no test reaches by waiting: those about the deadline move it (passDeadline),
  // so that a busy machine never makes an acknowledgement late.
  open = await openInteractionStore({ deadlineMs: 30_000, tokenTtlSeconds: 900 });
});
afterAll(() => open?.close());
beforeEach(() => open.pool.query('TRUNCATE interaction, message, outbox'));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Moves the interactions' deadline to `inMs` from now by the database's clock (negative: past). */
async function moveDeadline(ids: string[], inMs: number): Promise<void> {
  await open.pool.query(
    `UPDATE interaction SET deadline_at = now() + make_interval(secs => $2::float8 / 1000) WHERE id = ANY($1::bigint[])`,
    [ids, inMs],
  );
}

/** Waits until `done` holds, polling, for at most 10 s. */
async function until(done: () => boolean): Promise<void> {
  const by = Date.now() + 10_000;
  while (!done() && Date.now() < by) await sleep(10);
}

/** The callback's acknowledgement as resp's responder makes it: pending and before the deadline, or nothing. */
async function acknowledge(id: string): Promise<boolean> {
  const result = await open.pool.query(
    `UPDATE interaction SET state = 'acknowledged', response_type = 4, response = '{"type":4}'
     WHERE id = $1 AND state = 'pending' AND deadline_at > now()`,
    [id],
  );
  return result.rowCount === 1;
}

describe('InteractionStore.record', () => {
  it('writes the row (pending, deadline and expiry by the database clock) and interaction.created in one go', async () => {
    const interaction = newInteraction({ nonce: 'n1', sessionId: 's1' });
    await expect(open.store.record(interaction)).resolves.toEqual({ recorded: true });
    const row = await open.pool.query(
      `SELECT state, delivery, token_hash, payload, recipient_ids::text[],
         EXTRACT(EPOCH FROM deadline_at - created_at) * 1000 AS deadline_ms,
         EXTRACT(EPOCH FROM expires_at - created_at) AS ttl_s
       FROM interaction WHERE id = $1`,
      [interaction.id],
    );
    expect(row.rows[0]).toMatchObject({
      state: 'pending',
      delivery: 'gateway',
      token_hash: interaction.tokenHash,
      payload: interaction.payload,
      recipient_ids: [],
    });
    expect(Number(row.rows[0].deadline_ms)).toBeCloseTo(30_000, -1);
    expect(Number(row.rows[0].ttl_s)).toBeCloseTo(900, 0);
    expect(JSON.stringify(row.rows[0].payload)).not.toContain('token');
    expect(await outboxEvents(open.pool)).toEqual([
      {
        subject: 'acs.interactions.interaction.created',
        data: {
          interaction_id: interaction.id,
          application_id: interaction.applicationId,
          user_id: interaction.userId,
          session_id: 's1',
          nonce: 'n1',
          guild_id: interaction.guildId,
          channel_id: interaction.channelId,
          type: 2,
          bot_payload: interaction.botPayload,
        },
      },
    ]);
  });

  it('records a replayed nonce of the same user once, naming the first interaction', async () => {
    const first = newInteraction({ nonce: 'same' });
    await open.store.record(first);
    await expect(open.store.record(newInteraction({ nonce: 'same' }))).resolves.toEqual({
      recorded: false,
      interactionId: first.id,
    });
    await expect(open.store.findByNonce(first.userId, 'same')).resolves.toBe(first.id);
    // Another user's equal nonce is theirs, and no nonce never collides.
    await expect(
      open.store.record(newInteraction({ nonce: 'same', userId: '1500000000000000099' })),
    ).resolves.toEqual({
      recorded: true,
    });
    await open.store.record(newInteraction());
    await open.store.record(newInteraction());
    const created = (await outboxEvents(open.pool)).filter((e) => e.subject.endsWith('interaction.created'));
    expect(created).toHaveLength(4);
  });

  it('records concurrent replays of one nonce once', async () => {
    const attempts = Array.from({ length: 8 }, () => newInteraction({ nonce: 'burst' }));
    const results = await Promise.all(attempts.map((a) => open.store.record(a)));
    expect(results.filter((r) => r.recorded)).toHaveLength(1);
    const winner = attempts[results.findIndex((r) => r.recorded)]!;
    for (const result of results) if (!result.recorded) expect(result.interactionId).toBe(winner.id);
    expect((await open.pool.query('SELECT count(*)::int AS n FROM interaction')).rows[0].n).toBe(1);
  });

  it("lets a nonce be used again once the first interaction's token has expired", async () => {
    const first = newInteraction({ nonce: 'old' });
    await open.store.record(first);
    await open.pool.query("UPDATE interaction SET expires_at = now() - interval '1 second' WHERE id = $1", [
      first.id,
    ]);
    await expect(open.store.findByNonce(first.userId, 'old')).resolves.toBeUndefined();
    const second = newInteraction({ nonce: 'old' });
    await expect(open.store.record(second)).resolves.toEqual({ recorded: true });
    await expect(open.store.findByNonce(first.userId, 'old')).resolves.toBe(second.id);
  });

  it('records a launch acknowledged, with its message, succeeded and message.created', async () => {
    const interaction = newInteraction({ delivery: 'activity', botPayload: null });
    const messageId = nextId();
    const message = { id: messageId, type: 20, content: '', channel_id: interaction.channelId };
    await open.store.record(interaction, { activityInstanceId: 'i-1', messageId, message });
    const row = await open.pool.query(
      'SELECT state, response_type, response, activity_instance_id, original_message_id::text FROM interaction',
    );
    expect(row.rows[0]).toEqual({
      state: 'acknowledged',
      response_type: 12,
      response: { type: 12 },
      activity_instance_id: 'i-1',
      original_message_id: messageId,
    });
    expect((await outboxEvents(open.pool)).map((e) => e.subject)).toEqual([
      'acs.interactions.interaction.created',
      'acs.interactions.interaction.succeeded',
      'acs.interactions.message.created',
    ]);
    await expect(open.store.settled(interaction.id)).resolves.toMatchObject({
      state: 'acknowledged',
      response: { type: 12 },
      messages: [message],
    });
  });

  it('records nothing of a replayed launch: no second message, no events', async () => {
    const first = newInteraction({ nonce: 'launch', delivery: 'activity', botPayload: null });
    const launchOf = (id: string) => ({
      activityInstanceId: `i-${id}`,
      messageId: id,
      message: { id, type: 20, content: '', channel_id: first.channelId },
    });
    await open.store.record(first, launchOf(nextId()));
    const replay = newInteraction({ nonce: 'launch', delivery: 'activity', botPayload: null });
    await expect(open.store.record(replay, launchOf(nextId()))).resolves.toEqual({
      recorded: false,
      interactionId: first.id,
    });
    const counts = await open.pool.query(
      `SELECT (SELECT count(*) FROM interaction)::int AS interactions,
              (SELECT count(*) FROM message)::int AS messages,
              (SELECT count(*) FROM outbox)::int AS events`,
    );
    expect(counts.rows[0]).toEqual({ interactions: 1, messages: 1, events: 3 });
  });

  it('writes no row when its event does not match the catalog (one transaction)', async () => {
    // A valid bigint for the row, no snowflake for the event: nothing of it is written.
    const bad = newInteraction({ channelId: '-5' });
    await expect(open.store.record(bad)).rejects.toThrow();
    expect((await open.pool.query('SELECT count(*)::int AS n FROM interaction')).rows[0].n).toBe(0);
    expect(await outboxEvents(open.pool)).toEqual([]);
  });
});

describe('InteractionStore: the deadline', () => {
  it('fails only past the deadline when asked so, telling how long is left', async () => {
    const interaction = newInteraction();
    await open.store.record(interaction);
    const early = await open.store.failIfPending(interaction.id, TIMEOUT_FAILURE, true);
    expect(early.kind).toBe('pending');
    expect(early.kind === 'pending' && early.remainingMs).toBeGreaterThan(100);
    await moveDeadline([interaction.id], -1);
    await expect(open.store.failIfPending(interaction.id, TIMEOUT_FAILURE, true)).resolves.toMatchObject({
      kind: 'failed',
    });
    await expect(open.store.failIfPending(interaction.id, TIMEOUT_FAILURE, true)).resolves.toEqual({
      kind: 'settled',
    });
    const events = await outboxEvents(open.pool);
    expect(events.at(-1)).toEqual({
      subject: 'acs.interactions.interaction.failed',
      data: expect.objectContaining({ interaction_id: interaction.id, reason_code: 2 }),
    });
    await expect(open.store.settled(interaction.id)).resolves.toEqual({
      state: 'failed',
      reasonCode: 2,
      reason: 'the app did not answer within 30 s',
      payload: interaction.payload,
      response: null,
      messages: [],
      originalMessageId: null,
      steps: [],
    });
  });

  it('fails at once for a failed delivery (reason 1), not after an acknowledgement', async () => {
    const failing = newInteraction();
    const answered = newInteraction();
    await open.store.record(failing);
    await open.store.record(answered);
    await expect(
      open.store.failIfPending(
        failing.id,
        deliveryFailure({ kind: 'endpoint', detail: 'the interactions endpoint answered 500' }),
        false,
      ),
    ).resolves.toMatchObject({ kind: 'failed' });
    expect(await acknowledge(failing.id)).toBe(false);
    expect(await acknowledge(answered.id)).toBe(true);
    await expect(
      open.store.failIfPending(
        answered.id,
        deliveryFailure({ kind: 'endpoint', detail: 'the interactions endpoint answered 500' }),
        false,
      ),
    ).resolves.toEqual({ kind: 'settled' });
    const failed = (await outboxEvents(open.pool)).filter((e) => e.subject.endsWith('.failed'));
    expect(failed.map((e) => [e.data.interaction_id, e.data.reason_code])).toEqual([[failing.id, 1]]);
  });

  it('never lets an acknowledgement and the timeout both win, racing at the deadline', async () => {
    const interactions = Array.from({ length: 12 }, () => newInteraction());
    for (const interaction of interactions) await open.store.record(interaction);
    // The deadline passes while the twelve races run, staggered across it.
    await moveDeadline(
      interactions.map((interaction) => interaction.id),
      10,
    );
    const outcomes = await Promise.all(
      interactions.map(async (interaction, index) => {
        await sleep(index * 2);
        const [acknowledged, failed] = await Promise.all([
          acknowledge(interaction.id),
          open.store.failIfPending(interaction.id, TIMEOUT_FAILURE, false),
        ]);
        return { acknowledged, failed: failed.kind === 'failed' };
      }),
    );
    for (const outcome of outcomes) expect(Number(outcome.acknowledged) + Number(outcome.failed)).toBe(1);
    const states = await open.pool.query<{ id: string; state: string }>(
      'SELECT id::text, state FROM interaction',
    );
    const failedEvents = new Set(
      (await outboxEvents(open.pool))
        .filter((e) => e.subject.endsWith('.failed'))
        .map((e) => e.data.interaction_id),
    );
    for (const row of states.rows) expect(failedEvents.has(row.id)).toBe(row.state === 'failed');
  });

  it('sweeps overdue pending interactions, each once, and leaves the others', async () => {
    const overdue = [newInteraction(), newInteraction(), newInteraction()];
    for (const interaction of overdue) await open.store.record(interaction);
    await acknowledge(overdue[2]!.id);
    await moveDeadline(
      overdue.map((interaction) => interaction.id),
      -1,
    );
    const fresh = newInteraction();
    await open.store.record(fresh);
    const swept = await Promise.all([open.store.failOverdue(100), open.store.failOverdue(100)]);
    expect(swept[0].length + swept[1].length).toBe(2);
    expect(swept.flat().map((failed) => failed.reason)).toEqual([
      'the app did not answer within 30 s',
      'the app did not answer within 30 s',
    ]);
    await expect(open.store.failOverdue(100)).resolves.toEqual([]);
    const states = await open.pool.query<{ id: string; state: string; reason_code: number | null }>(
      'SELECT id::text, state, reason_code FROM interaction ORDER BY id',
    );
    expect(states.rows).toEqual([
      { id: overdue[0]!.id, state: 'failed', reason_code: 2 },
      { id: overdue[1]!.id, state: 'failed', reason_code: 2 },
      { id: overdue[2]!.id, state: 'acknowledged', reason_code: null },
      { id: fresh.id, state: 'pending', reason_code: null },
    ]);
  });

  it("announces each outcome on the 'interactions_outcome' channel at commit", async () => {
    const listener = new Client({ connectionString: serviceDatabaseUrl(open.db.url, DB_SCHEMA) });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (n) => heard.push(`${n.channel}:${n.payload}`));
      await listener.query('LISTEN interactions_outcome');
      const interaction = newInteraction();
      await open.store.record(interaction);
      await open.store.failIfPending(
        interaction.id,
        deliveryFailure({ kind: 'endpoint', detail: 'the interactions endpoint answered 500' }),
        false,
      );
      await until(() => heard.length > 0);
      expect(heard).toEqual([`interactions_outcome:${interaction.id}`]);
    } finally {
      await listener.end();
    }
  });
});

describe('InteractionStore: reading', () => {
  it('settles nothing while pending, then gives the response and the live messages in order', async () => {
    const interaction = newInteraction();
    await open.store.record(interaction);
    await expect(open.store.settled(interaction.id)).resolves.toBeUndefined();
    await expect(open.store.settled(nextId())).resolves.toBeUndefined();
    await acknowledge(interaction.id);
    const [a, b, c] = [nextId(), nextId(), nextId()];
    for (const [id, deleted] of [
      [b, false],
      [a, false],
      [c, true],
    ] as const) {
      await open.pool.query(
        `INSERT INTO message (id, interaction_id, application_id, channel_id, is_original, flags, body, deleted_at)
         VALUES ($1, $2, 1, 1, false, 0, $3, ${deleted ? 'now()' : 'NULL'})`,
        [id, interaction.id, JSON.stringify({ id })],
      );
    }
    await expect(open.store.settled(interaction.id)).resolves.toEqual({
      state: 'acknowledged',
      reasonCode: null,
      reason: null,
      payload: interaction.payload,
      response: { type: 4 },
      messages: [{ id: a }, { id: b }],
      originalMessageId: null,
      steps: [],
    });
  });

  it("finds a MESSAGE command's target only in its channel, live, and not another user's ephemeral", async () => {
    const interaction = newInteraction();
    await open.store.record(interaction);
    const insert = (id: string, channel: string, ephemeralUser: string | null, deleted = false) =>
      open.pool.query(
        `INSERT INTO message (id, interaction_id, application_id, channel_id, ephemeral_user_id, is_original, flags, body, deleted_at)
         VALUES ($1, $2, 1, $3, $4, true, 0, $5, ${deleted ? 'now()' : 'NULL'})`,
        [id, interaction.id, channel, ephemeralUser, JSON.stringify({ id })],
      );
    const [visible, elsewhere, secret, mine, gone] = [nextId(), nextId(), nextId(), nextId(), nextId()];
    await insert(visible, '10', null);
    await insert(elsewhere, '11', null);
    await insert(secret, '10', '77');
    await insert(mine, '10', '78');
    await insert(gone, '10', null, true);
    await expect(open.store.findTargetMessage('10', visible, '78')).resolves.toEqual({ id: visible });
    await expect(open.store.findTargetMessage('10', elsewhere, '78')).resolves.toBeNull();
    await expect(open.store.findTargetMessage('10', secret, '78')).resolves.toBeNull();
    await expect(open.store.findTargetMessage('10', mine, '78')).resolves.toEqual({ id: mine });
    await expect(open.store.findTargetMessage('10', gone, '78')).resolves.toBeNull();
  });
});

describe('InteractionStore: the timeline', () => {
  it('keeps the latest 1000 traces of an application, pruned as interactions are recorded', async () => {
    const applicationId = '1500000000000000777';
    const other = newInteraction({ applicationId: '1500000000000000778' });
    await open.store.record(other);
    const recorded: string[] = [];
    for (let i = 0; i < 1002; i += 1) {
      const interaction = newInteraction({ applicationId });
      await open.store.record(interaction);
      recorded.push(interaction.id);
    }
    const { rows } = await open.pool.query<{ id: string }>(
      'SELECT interaction_id::text AS id FROM interaction_trace WHERE application_id = $1 ORDER BY interaction_id',
      [applicationId],
    );
    expect(rows.map((row) => row.id)).toEqual(recorded.slice(2));
    // Another application's are its own to keep.
    const kept = await open.pool.query('SELECT 1 FROM interaction_trace WHERE interaction_id = $1', [
      other.id,
    ]);
    expect(kept.rowCount).toBe(1);
  });

  it('keeps a large payload as a preview that says its size', async () => {
    const interaction = newInteraction();
    interaction.payload = { ...interaction.payload, data: { name: 'ping', blob: 'x'.repeat(40_000) } };
    await open.store.record(interaction);
    const { rows } = await open.pool.query<{ payload: { truncated: boolean; bytes: number } }>(
      'SELECT payload FROM interaction_trace WHERE interaction_id = $1',
      [interaction.id],
    );
    expect(rows[0]?.payload).toMatchObject({
      truncated: true,
      bytes: JSON.stringify(interaction.payload).length,
    });
  });
});
