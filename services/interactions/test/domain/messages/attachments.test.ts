import {
  ATTACHMENT_IS_SPOILER,
  MaxAttachmentsError,
  applyMessageEdit,
  cleanFilename,
  makeAttachments,
  planAttachmentEdit,
  validateMessage,
  validateMessageEdit,
  type MessageAttachment,
  type NewAttachment,
  type UploadedFile,
} from '../../../src/domain/messages';
import { discordErrorOf, formErrorsOf, oneError } from '../form-errors-of';
import { TEST_SIGNER } from '../../support/test-signer';

const file = (index: number, filename = `f${index}.txt`, size = 3): UploadedFile => ({
  index,
  blobKey: `uploads/k${index}`,
  filename,
  contentType: 'text/plain',
  size,
});

/** A signed attachment URL's query, as Discord's CDN writes it. */
const SIGNED = /\?ex=[0-9a-f]+&is=[0-9a-f]+&hm=[0-9a-f]{64}&$/;

let next = 1000;
const make = (added: readonly NewAttachment[]) =>
  makeAttachments(added, {
    nextId: () => String(next++),
    channelId: '55',
    baseUrl: 'http://acs.test/',
    ephemeral: false,
    signer: TEST_SIGNER,
  });

const existing = (id: string, filename = 'old.txt'): MessageAttachment => ({
  id,
  filename,
  content_type: 'text/plain',
  size: 1,
  url: `http://acs.test/attachments/55/${id}/${filename}`,
  proxy_url: `http://acs.test/attachments/55/${id}/${filename}`,
});

describe('a new message with files', () => {
  it('attaches every file, described by `attachments` through its index', () => {
    const input = validateMessage(
      {
        attachments: [
          { id: 1, description: 'second', title: 'Two' },
          { id: '0', filename: 'renamed.txt' },
        ],
      },
      [],
      [file(0), file(1)],
    );
    expect(input.newAttachments.map((a) => [a.file.index, a.filename, a.description, a.title])).toEqual([
      [0, 'renamed.txt', undefined, undefined],
      [1, 'f1.txt', 'second', 'Two'],
    ]);
  });

  it('is no empty message when it has a file and nothing else', () => {
    expect(validateMessage({}, [], [file(0)]).newAttachments).toHaveLength(1);
  });

  it('marks spoilers by the SPOILER_ prefix or is_spoiler, which adds it', () => {
    const input = validateMessage(
      { content: 'x', attachments: [{ id: 1, is_spoiler: true }] },
      [],
      [file(0, 'SPOILER_a.png'), file(1, 'b.png')],
    );
    const made = make(input.newAttachments);
    expect(made.map((m) => [m.attachment.filename, m.attachment.flags])).toEqual([
      ['SPOILER_a.png', ATTACHMENT_IS_SPOILER],
      ['SPOILER_b.png', ATTACHMENT_IS_SPOILER],
    ]);
  });

  it('refuses an id that names no file with ATTACHMENT_NOT_FOUND at its index', () => {
    expect(
      formErrorsOf(() =>
        validateMessage({ content: 'x', attachments: [{ id: 0 }, { id: 5 }] }, [], [file(0)]),
      ),
    ).toEqual(oneError(['attachments', 1], 'ATTACHMENT_NOT_FOUND', 'Attachment data not found'));
  });

  it('type-checks each entry and its lengths', () => {
    const errors = formErrorsOf(() =>
      validateMessage(
        {
          content: 'x',
          attachments: [{ id: 'x' }, { id: 0, description: 'd'.repeat(1025), is_spoiler: 'y' }],
        },
        [],
        [file(0)],
      ),
    );
    expect(Object.keys((errors as { attachments: object }).attachments)).toEqual(['0', '1']);
  });

  it('renders attachment objects served under the base URL, signed', () => {
    const [made] = make([
      { file: file(0, 'a b.txt', 3), filename: cleanFilename('a b.txt'), spoiler: false, description: 'd' },
    ]);
    expect(made!.attachment).toEqual({
      id: expect.any(String),
      filename: 'a_b.txt',
      description: 'd',
      content_type: 'text/plain',
      size: 3,
      url: expect.stringMatching(SIGNED),
      proxy_url: made!.attachment.url,
    });
    expect(
      made!.attachment.url.startsWith(`http://acs.test/attachments/55/${made!.attachment.id}/a_b.txt?`),
    ).toBe(true);
    expect(made!.blobKey).toBe('uploads/k0');
  });

  it('cleans filenames to one safe URL segment', () => {
    expect(cleanFilename('../../etc/passwd')).toBe('passwd');
    expect(cleanFilename('résumé final.pdf')).toBe('r_sum__final.pdf');
    expect(cleanFilename('...')).toBe('unknown');
  });
});

describe('an edit with attachments', () => {
  const current = [existing('1'), existing('2')];

  it('keeps the attachments it lists, removes the rest, appends its files', () => {
    const edit = validateMessageEdit({ attachments: [{ id: '2' }, { id: 0 }] }, [], [file(0)]);
    const change = planAttachmentEdit(current, edit.attachments!, make);
    expect(change.attachments.map((a) => a.id)).toEqual(['2', change.created[0]!.attachment.id]);
    expect(change.removed.map((a) => a.id)).toEqual(['1']);
  });

  it('keeps every attachment without `attachments`, and appends its files', () => {
    const edit = validateMessageEdit({ content: 'x' }, [], [file(0)]);
    const change = planAttachmentEdit(current, edit.attachments!, make);
    expect(change.attachments).toHaveLength(3);
    expect(change.removed).toEqual([]);
    expect(validateMessageEdit({ content: 'x' }).attachments).toBeUndefined();
  });

  it('removes every attachment with an empty list or null', () => {
    for (const attachments of [[], null]) {
      const change = planAttachmentEdit(current, validateMessageEdit({ attachments }).attachments!, make);
      expect(change.attachments).toEqual([]);
      expect(change.removed).toHaveLength(2);
    }
  });

  it('refuses an id of neither', () => {
    const edit = validateMessageEdit({ attachments: [{ id: '3' }] });
    expect(formErrorsOf(() => planAttachmentEdit(current, edit.attachments!, make))).toEqual(
      oneError(['attachments', 0], 'ATTACHMENT_NOT_FOUND', 'Attachment data not found'),
    );
  });

  it('refuses an eleventh attachment with 30015, ten pass', () => {
    const ten = Array.from({ length: 8 }, (_, i) => file(i));
    expect(planAttachmentEdit(current, { files: ten }, make).attachments).toHaveLength(10);
    const error = discordErrorOf(() => planAttachmentEdit(current, { files: [...ten, file(8)] }, make));
    expect(error).toBeInstanceOf(MaxAttachmentsError);
    expect(error).toMatchObject({ httpStatus: 400, code: 30015 });
  });

  it('lets a message keep only files when its content is cleared', () => {
    const message = {
      content: 'x',
      embeds: [],
      tts: false,
      flags: 0,
      attachments: current,
      edited_timestamp: null,
    } as unknown as Parameters<typeof applyMessageEdit>[0];
    const edited = applyMessageEdit(message, validateMessageEdit({ content: null }), new Date(0));
    expect(edited.attachments).toEqual(current);
    expect(() =>
      applyMessageEdit(message, validateMessageEdit({ content: null }), new Date(0), { attachments: [] }),
    ).toThrow('Cannot send an empty message');
  });
});

describe('attachment:// URLs of components v2', () => {
  const V2 = 1 << 15;
  const body = (url: string) => ({
    flags: V2,
    components: [
      { type: 13, file: { url } },
      { type: 12, items: [{ media: { url: 'https://example.com/a.png' } }, { media: { url } }] },
      {
        type: 9,
        components: [{ type: 10, content: 'x' }],
        accessory: { type: 11, media: { url } },
      },
    ],
  });

  it("must name one of the message's files (as sent or as kept), else 50035 at each URL", () => {
    expect(validateMessage(body('attachment://f0.txt'), [], [file(0)]).components).toHaveLength(3);
    expect(
      validateMessage({ ...body('attachment://sent_name.txt') }, [], [file(0, 'sent name.txt')]).components,
    ).toHaveLength(3);
    const errors = formErrorsOf(() => validateMessage(body('attachment://other.txt'), [], [file(0)]));
    expect(errors).toEqual({
      components: {
        '0': oneError(['file', 'url'], 'MEDIA_URL_ATTACHMENT_NOT_FOUND'),
        '1': oneError(['items', 1, 'media', 'url'], 'MEDIA_URL_ATTACHMENT_NOT_FOUND'),
        '2': oneError(['accessory', 'media', 'url'], 'MEDIA_URL_ATTACHMENT_NOT_FOUND'),
      },
    });
  });

  it('checks an edit against the attachments the message has after it', () => {
    const message = {
      content: '',
      embeds: [],
      tts: false,
      flags: V2,
      components: [{ type: 10, id: 1, content: 'hi' }],
      attachments: [existing('1', 'kept.txt')],
      edited_timestamp: null,
    } as unknown as Parameters<typeof applyMessageEdit>[0];
    const edit = (url: string) => validateMessageEdit({ components: [{ type: 13, file: { url } }] });
    expect(applyMessageEdit(message, edit('attachment://kept.txt'), new Date(0)).components).toHaveLength(1);
    expect(
      formErrorsOf(() =>
        applyMessageEdit(message, edit('attachment://kept.txt'), new Date(0), { attachments: [] }),
      ),
    ).toEqual({ components: { '0': oneError(['file', 'url'], 'MEDIA_URL_ATTACHMENT_NOT_FOUND') } });
  });
});
