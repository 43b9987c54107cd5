import { validateCallback } from '../../src/domain/callbacks';
import { validateMessage, validateMessageEdit } from '../../src/domain/messages';
import type { MessageTarget } from '../../src/store/message-store';
import {
  BOT,
  USER,
  eventsOf,
  openResponseStores,
  recordInteraction,
  type InteractionFixture,
  type ResponseContext,
} from './response-fixtures';

let ctx: ResponseContext;
beforeAll(async () => {
  ctx = await openResponseStores();
});
afterAll(async () => ctx?.close());

const COMMAND = { interactionType: 2, applicationFlags: 1 << 17 };
const ORIGINAL: MessageTarget = { original: true };
const byId = (id: string): MessageTarget => ({ original: false, id });

/** An interaction answered with `callback` (a message reply by default). */
async function answered(
  callback: unknown = { type: 4, data: { content: 'pong' } },
  fixture: InteractionFixture = {},
) {
  const interaction = await recordInteraction(ctx, fixture);
  const made = await ctx.responses.acknowledge(
    await interaction.record(),
    validateCallback(callback, COMMAND),
    BOT,
  );
  return { ...interaction, record: await interaction.record(), original: made.message };
}

async function followupCount(id: string): Promise<number> {
  const { rows } = await ctx.pool.query<{ followup_count: number }>(
    'SELECT followup_count FROM interaction WHERE id = $1',
    [id],
  );
  return rows[0]?.followup_count ?? -1;
}

describe('follow-ups', () => {
  it('post a new message tied to the original response, counted, announced', async () => {
    const { id, record, original } = await answered();
    const followup = await ctx.messages.createFollowup(
      record,
      validateMessage({ content: 'more', flags: 64 }),
      undefined,
    );
    expect(followup).toMatchObject({
      content: 'more',
      flags: 64,
      author: BOT,
      interaction_metadata: { id, original_response_message_id: original?.id },
    });
    expect(followup.id).not.toBe(original?.id);
    expect(await followupCount(id)).toBe(1);
    await expect(ctx.messages.get(record, byId(followup.id))).resolves.toEqual(followup);
    const created = (await eventsOf(ctx, { interactionId: id })).filter((e) =>
      e.subject.endsWith('message.created'),
    );
    expect(created.map((e) => (e.data.message as { id: string }).id)).toEqual([original?.id, followup.id]);
    expect(created[1]?.data.ephemeral_user_id).toBe(USER.id);
  });

  it('right after a defer, the first one fills the loading message (its EPHEMERAL ignored), the next is new', async () => {
    const { id, record, original } = await answered({ type: 5 });
    const filled = await ctx.messages.createFollowup(
      record,
      validateMessage({ content: 'done', flags: 64 }),
      undefined,
    );
    expect(filled).toMatchObject({ id: original?.id, content: 'done', flags: 0, edited_timestamp: null });
    expect(await followupCount(id)).toBe(0);
    await expect(ctx.messages.get(record, ORIGINAL)).resolves.toEqual(filled);
    const events = await eventsOf(ctx, { interactionId: id });
    expect(events.map((e) => e.subject)).toEqual([
      'acs.interactions.interaction.succeeded',
      'acs.interactions.message.created',
      'acs.interactions.message.updated',
    ]);
    expect(events[2]?.data).toMatchObject({ ephemeral_user_id: null, message: filled });

    const next = await ctx.messages.createFollowup(record, validateMessage({ content: 'next' }), undefined);
    expect(next.id).not.toBe(original?.id);
    expect(await followupCount(id)).toBe(1);
  });

  it('an ephemeral defer stays ephemeral when filled', async () => {
    const { record } = await answered({ type: 5, data: { flags: 64 } });
    const filled = await ctx.messages.createFollowup(
      record,
      validateMessage({ content: 'secret' }),
      undefined,
    );
    expect(filled.flags).toBe(64);
  });

  it('take the author from oauth when there is no original response (LAUNCH_ACTIVITY)', async () => {
    const { record } = await answered({ type: 12 });
    const followup = await ctx.messages.createFollowup(record, validateMessage({ content: 'launched' }), BOT);
    expect(followup.author).toEqual(BOT);
    expect(followup.interaction_metadata).not.toHaveProperty('original_response_message_id');
  });

  it('stop at 5 when only a user install authorizes the interaction: 400 / 40094', async () => {
    const { id, record } = await answered(undefined, { userInstallOnly: true });
    for (let i = 0; i < 5; i++) {
      await ctx.messages.createFollowup(record, validateMessage({ content: `#${i}` }), undefined);
    }
    await expect(
      ctx.messages.createFollowup(record, validateMessage({ content: 'sixth' }), undefined),
    ).rejects.toMatchObject({
      httpStatus: 400,
      code: 40094,
      message: 'This interaction has hit the maximum number of follow up messages',
    });
    expect(await followupCount(id)).toBe(5);
  });

  it('parallel follow-ups cannot pass the limit together', async () => {
    const { id, record } = await answered(undefined, { userInstallOnly: true });
    const results = await Promise.allSettled(
      Array.from({ length: 9 }, (_, i) =>
        ctx.messages.createFollowup(record, validateMessage({ content: `#${i}` }), undefined),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(await followupCount(id)).toBe(5);
    const { rows } = await ctx.pool.query('SELECT id FROM message WHERE interaction_id = $1', [id]);
    expect(rows).toHaveLength(6);
  });

  it('have no limit when a guild install authorizes the interaction', async () => {
    const { id, record } = await answered();
    for (let i = 0; i < 7; i++) {
      await ctx.messages.createFollowup(record, validateMessage({ content: `#${i}` }), undefined);
    }
    expect(await followupCount(id)).toBe(7);
  });
});

describe('reading, editing, deleting', () => {
  it('@original is the response message; before one exists it is 404 / 10008', async () => {
    const pending = await recordInteraction(ctx);
    await expect(ctx.messages.get(await pending.record(), ORIGINAL)).rejects.toMatchObject({
      httpStatus: 404,
      code: 10008,
      message: 'Unknown Message',
    });
    const { record, original } = await answered();
    await expect(ctx.messages.get(record, ORIGINAL)).resolves.toEqual(original);
    await expect(ctx.messages.get(record, byId(original?.id ?? ''))).resolves.toEqual(original);
  });

  it("another interaction's message or an unknown id is 10008, for every route", async () => {
    const mine = await answered();
    const theirs = await answered();
    const foreign = byId(theirs.original?.id ?? '');
    const unknown = byId('1500000000000009999');
    for (const target of [foreign, unknown]) {
      await expect(ctx.messages.get(mine.record, target)).rejects.toMatchObject({ code: 10008 });
      await expect(ctx.messages.edit(mine.record, target, { content: 'x' })).rejects.toMatchObject({
        code: 10008,
      });
      await expect(ctx.messages.remove(mine.record, target)).rejects.toMatchObject({ code: 10008 });
    }
    await expect(ctx.messages.get(theirs.record, foreign)).resolves.toEqual(theirs.original);
  });

  it('an edit replaces what it names, marks the message edited and is announced to the same audience', async () => {
    const { id, record, original } = await answered({ type: 4, data: { content: 'pong', flags: 64 } });
    const edited = await ctx.messages.edit(
      record,
      ORIGINAL,
      validateMessageEdit({ content: 'pong!', flags: 4 }),
    );
    expect(edited).toMatchObject({ id: original?.id, content: 'pong!', flags: 64 | 4 });
    expect(edited.edited_timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?\+00:00$/);
    const { rows } = await ctx.pool.query<{ edited: boolean; flags: number }>(
      'SELECT edited_at IS NOT NULL AS edited, flags FROM message WHERE id = $1',
      [original?.id],
    );
    expect(rows[0]).toEqual({ edited: true, flags: 68 });
    const updated = (await eventsOf(ctx, { interactionId: id })).find((e) =>
      e.subject.endsWith('message.updated'),
    );
    expect(updated?.data).toMatchObject({ ephemeral_user_id: USER.id, message: edited });
  });

  it('editing the loading message gives it content without marking it edited', async () => {
    const { record } = await answered({ type: 5 });
    const filled = await ctx.messages.edit(record, ORIGINAL, validateMessageEdit({ content: 'here' }));
    expect(filled).toMatchObject({ content: 'here', flags: 0, edited_timestamp: null });
    const { rows } = await ctx.pool.query<{ edited: boolean }>(
      'SELECT edited_at IS NOT NULL AS edited FROM message WHERE id = $1',
      [filled.id],
    );
    expect(rows[0]?.edited).toBe(false);
  });

  it('an edit leaving nothing to show is 400 / 50006 and changes nothing', async () => {
    const { record, original } = await answered();
    await expect(
      ctx.messages.edit(record, ORIGINAL, validateMessageEdit({ content: null })),
    ).rejects.toMatchObject({
      code: 50006,
    });
    await expect(ctx.messages.get(record, ORIGINAL)).resolves.toEqual(original);
  });

  it('a deleted message is gone for every route, and its deletion announced once', async () => {
    const { record, original } = await answered({ type: 4, data: { content: 'bye', flags: 64 } });
    const followup = await ctx.messages.createFollowup(record, validateMessage({ content: 'f' }), undefined);
    await ctx.messages.remove(record, ORIGINAL);
    await ctx.messages.remove(record, byId(followup.id));
    for (const target of [ORIGINAL, byId(followup.id)]) {
      await expect(ctx.messages.get(record, target)).rejects.toMatchObject({ code: 10008 });
      await expect(ctx.messages.edit(record, target, { content: 'x' })).rejects.toMatchObject({
        code: 10008,
      });
      await expect(ctx.messages.remove(record, target)).rejects.toMatchObject({ code: 10008 });
    }
    const deleted = (await eventsOf(ctx, { messageIds: [original?.id ?? '', followup.id] })).filter((e) =>
      e.subject.endsWith('message.deleted'),
    );
    expect(deleted.map((e) => e.data)).toEqual([
      expect.objectContaining({ message_id: original?.id, ephemeral_user_id: USER.id }),
      expect.objectContaining({ message_id: followup.id, ephemeral_user_id: null }),
    ]);
  });

  it('a follow-up after the original response was deleted is a new message', async () => {
    const { record, original } = await answered({ type: 5 });
    await ctx.messages.remove(record, ORIGINAL);
    const followup = await ctx.messages.createFollowup(
      record,
      validateMessage({ content: 'again' }),
      undefined,
    );
    expect(followup.id).not.toBe(original?.id);
    expect(followup.author).toEqual(BOT);
  });
});
