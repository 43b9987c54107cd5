import { UnknownInteractionError } from '../../src/domain/callbacks';
import type { MadeAttachment } from '../../src/domain/messages';
import { AttachmentStore } from '../../src/store/attachment-rows';
import { FollowOnSourcesStore } from '../../src/store/follow-on-sources-store';
import { newInteraction, openInteractionStore, outboxEvents } from './open-interaction-store';

let ctx: Awaited<ReturnType<typeof openInteractionStore>>;
let sources: FollowOnSourcesStore;
beforeAll(async () => {
  ctx = await openInteractionStore();
  sources = new FollowOnSourcesStore(ctx.pool);
});
afterAll(async () => ctx?.close());

const MODAL = {
  custom_id: 'form',
  title: 'Tell us',
  components: [
    { type: 18, id: 1, label: 'Name', component: { type: 4, id: 2, custom_id: 'name', style: 1 } },
  ],
};

/** An interaction that opened MODAL (as callback 9 leaves it). */
async function openedModal() {
  const opener = newInteraction();
  expect(await ctx.store.record(opener)).toEqual({ recorded: true });
  await ctx.pool.query(
    `UPDATE interaction SET state = 'acknowledged', response_type = 9, response = $2 WHERE id = $1`,
    [opener.id, JSON.stringify({ type: 9, data: MODAL })],
  );
  return opener;
}

describe('a modal submit', () => {
  it('finds the modal an interaction opened, and only such', async () => {
    const opener = await openedModal();
    expect(await sources.findOpenModal(opener.id)).toMatchObject({
      userId: opener.userId,
      applicationId: opener.applicationId,
      channelId: opener.channelId,
      guildId: opener.guildId,
      modal: MODAL,
      submitted: false,
      expired: false,
      messageId: null,
      origin: { id: opener.id, commandName: 'ping' },
    });
    const plain = newInteraction();
    await ctx.store.record(plain);
    expect(await sources.findOpenModal(plain.id)).toBeUndefined();
  });

  it('records once: of two racing submits one is recorded, the other is 10062, and nothing of it is written', async () => {
    const opener = await openedModal();
    const submits = [1, 2].map(() => newInteraction({ type: 5 }));
    const results = await Promise.allSettled(submits.map((s) => ctx.store.recordModalSubmit(s, opener.id)));
    const recorded = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(recorded).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(UnknownInteractionError);
    const { rows } = await ctx.pool.query<{ id: string }>(
      'SELECT id::text FROM interaction WHERE type = 5 AND id = ANY($1)',
      [submits.map((s) => s.id)],
    );
    expect(rows).toHaveLength(1);
    expect((await sources.findOpenModal(opener.id))?.submitted).toBe(true);
    const created = (await outboxEvents(ctx.pool)).filter(
      (e) => e.subject.endsWith('interaction.created') && submits.some((s) => s.id === e.data.interaction_id),
    );
    expect(created).toHaveLength(1);
  });

  it("is refused for another user's modal", async () => {
    const opener = await openedModal();
    await expect(
      ctx.store.recordModalSubmit(newInteraction({ type: 5, userId: '1500000000000000099' }), opener.id),
    ).rejects.toBeInstanceOf(UnknownInteractionError);
    expect((await sources.findOpenModal(opener.id))?.submitted).toBe(false);
  });

  it("writes a submit's files with its interaction (no message), and none for a refused submit", async () => {
    const attachments = new AttachmentStore(ctx.pool);
    const made = (id: string, blobKey: string): MadeAttachment => ({
      attachment: {
        id,
        filename: 'notes.txt',
        content_type: 'text/plain',
        size: 5,
        url: 'u',
        proxy_url: 'u',
        ephemeral: true,
      },
      blobKey,
    });
    const opener = await openedModal();
    const submit = newInteraction({ type: 5 });
    const first = [
      made('1700000000000000001', 'uploads/modal-a'),
      made('1700000000000000002', 'uploads/modal-b'),
    ];
    expect(await ctx.store.recordModalSubmit(submit, opener.id, first)).toEqual({ recorded: true });
    const { rows } = await ctx.pool.query<{ id: string; message_id: string | null; interaction_id: string }>(
      `SELECT id::text, message_id::text, interaction_id::text FROM attachment
        WHERE interaction_id = $1 ORDER BY id`,
      [submit.id],
    );
    expect(rows).toEqual([
      { id: '1700000000000000001', message_id: null, interaction_id: submit.id },
      { id: '1700000000000000002', message_id: null, interaction_id: submit.id },
    ]);
    expect(await attachments.find(submit.channelId, '1700000000000000001', 'notes.txt')).toEqual({
      blobKey: 'uploads/modal-a',
      contentType: 'text/plain',
      size: 5,
      ephemeral: true,
    });
    // A second submit of the modal is refused, and none of its files is written.
    const late = [made('1700000000000000003', 'uploads/modal-c')];
    await expect(
      ctx.store.recordModalSubmit(newInteraction({ type: 5 }), opener.id, late),
    ).rejects.toBeInstanceOf(UnknownInteractionError);
    expect(await attachments.referenced(['uploads/modal-a', 'uploads/modal-b', 'uploads/modal-c'])).toEqual(
      new Set(['uploads/modal-a', 'uploads/modal-b']),
    );
  });
});
