import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createFileBlobStore } from '@acs/blob-store';
import { createLogger } from '@acs/service-kit';
import { OrphanBlobSweep } from '../../src/blobs/orphan-blob-sweep';
import { validateCallback } from '../../src/domain/callbacks';
import { validateMessage, validateMessageEdit, type UploadedFile } from '../../src/domain/messages';
import { AttachmentStore } from '../../src/store/attachment-rows';
import {
  BOT,
  CHANNEL,
  openResponseStores,
  recordInteraction,
  type ResponseContext,
} from './response-fixtures';

let ctx: ResponseContext;
let attachments: AttachmentStore;
beforeAll(async () => {
  ctx = await openResponseStores();
  attachments = new AttachmentStore(ctx.pool);
});
afterAll(async () => ctx?.close());

const BASE = 'http://acs.test';
let key = 0;
const upload = (index: number, filename = `f${index}.txt`): UploadedFile => ({
  index,
  blobKey: `uploads/t${key++}`,
  filename,
  contentType: 'text/plain',
  size: 5,
});

async function rowsOf(messageId: string): Promise<string[]> {
  const { rows } = await ctx.pool.query<{ id: string }>(
    'SELECT id::text FROM attachment WHERE message_id = $1 ORDER BY id',
    [messageId],
  );
  return rows.map((row) => row.id);
}

async function answeredWithFiles(files: UploadedFile[]) {
  const interaction = await recordInteraction(ctx, {});
  const callback = validateCallback(
    { type: 4, data: { content: 'files', attachments: [{ id: 0, description: 'first' }] } },
    { interactionType: 2, applicationFlags: 0, files },
  );
  const made = await ctx.responses.acknowledge(await interaction.record(), callback, BOT, BASE);
  return { record: await interaction.record(), message: made.message! };
}

describe('attachments of interaction messages', () => {
  it('a callback with files records them with the response, found by channel, id and filename', async () => {
    const files = [upload(0, 'a.txt'), upload(1, 'b.txt')];
    const { message } = await answeredWithFiles(files);
    expect(message.attachments).toEqual([
      expect.objectContaining({
        filename: 'a.txt',
        description: 'first',
        size: 5,
        content_type: 'text/plain',
      }),
      expect.objectContaining({ filename: 'b.txt' }),
    ]);
    const [first] = message.attachments;
    expect(first!.url.startsWith(`${BASE}/attachments/${CHANNEL}/${first!.id}/a.txt?ex=`)).toBe(true);
    expect(await rowsOf(message.id)).toEqual(message.attachments.map((a) => a.id).sort());
    expect(await attachments.find(CHANNEL, first!.id, 'a.txt')).toEqual({
      blobKey: files[0]!.blobKey,
      contentType: 'text/plain',
      size: 5,
      ephemeral: false,
    });
    expect(await attachments.find(CHANNEL, first!.id, 'b.txt')).toBeUndefined();
    expect(await attachments.find('1', first!.id, 'a.txt')).toBeUndefined();
  });

  it('a follow-up records its files; an edit keeps those listed and releases the rest; a deletion releases all', async () => {
    const { record } = await answeredWithFiles([upload(0)]);
    const files = [upload(0), upload(1)];
    const followup = await ctx.messages.createFollowup(
      record,
      validateMessage({}, [], files),
      undefined,
      BASE,
    );
    expect(followup.attachments).toHaveLength(2);
    const [keep, drop] = followup.attachments;
    const added = upload(0, 'new.txt');
    const edited = await ctx.messages.edit(
      record,
      { original: false, id: followup.id },
      validateMessageEdit({ attachments: [{ id: keep!.id }] }, [], [added]),
      BASE,
    );
    expect(edited.attachments.map((a) => a.filename)).toEqual([keep!.filename, 'new.txt']);
    expect(ctx.released).toEqual([files[1]!.blobKey]);
    expect(await attachments.find(CHANNEL, drop!.id, drop!.filename)).toBeUndefined();
    await ctx.messages.remove(record, { original: false, id: followup.id });
    expect([...ctx.released].sort()).toEqual([files[1]!.blobKey, files[0]!.blobKey, added.blobKey].sort());
    expect(await rowsOf(followup.id)).toEqual([]);
  });

  it('a refused edit changes nothing', async () => {
    const { record, message } = await answeredWithFiles([upload(0)]);
    const before = ctx.released.length;
    await expect(
      ctx.messages.edit(
        record,
        { original: true },
        validateMessageEdit({ attachments: [{ id: '42' }] }),
        BASE,
      ),
    ).rejects.toMatchObject({ code: 50035 });
    expect(ctx.released.length).toBe(before);
    expect(await rowsOf(message.id)).toHaveLength(1);
  });
});

describe('the sweep of orphan blobs', () => {
  it('deletes old blobs no attachment names, and keeps named and young ones', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'acs-sweep-'));
    try {
      const blobs = createFileBlobStore(dir);
      const named = upload(0);
      await answeredWithFiles([named]);
      for (const key of [named.blobKey, 'uploads/orphan']) {
        await blobs.put(key, Readable.from([Buffer.from('bytes')]), {
          contentType: 'text/plain',
          maxBytes: 5,
        });
      }
      const sweep = new OrphanBlobSweep({
        blobs,
        attachments,
        logger: createLogger('sweep-test', 'silent'),
        orphanAgeMs: 60_000,
        intervalMs: 60_000,
      });
      // Young: nothing goes.
      expect(await sweep.sweepOnce()).toBe(0);
      // Past the age: only the orphan goes.
      expect(await sweep.sweepOnce(new Date(Date.now() + 120_000))).toBe(1);
      expect(await blobs.get('uploads/orphan')).toBeUndefined();
      expect(await blobs.get(named.blobKey)).toBeDefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
