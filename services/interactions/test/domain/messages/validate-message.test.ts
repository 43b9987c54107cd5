import { EmptyMessageError, validateMessage, validateMessageEdit } from '../../../src/domain/messages';
import { codesAt, discordErrorOf, formErrorsOf, oneError } from '../form-errors-of';

const errorsOf = (body: unknown, basePath: (string | number)[] = []) =>
  formErrorsOf(() => validateMessage(body, basePath));

describe('validateMessage', () => {
  it('normalizes a plain message: tts false, flags 0, no embeds', () => {
    expect(validateMessage({ content: 'pong' })).toEqual({
      content: 'pong',
      embeds: [],
      tts: false,
      flags: 0,
      components: [],
      newAttachments: [],
    });
  });

  it('keeps tts and settable flags', () => {
    for (const flags of [4, 64, 4096, 4 | 64 | 4096]) {
      expect(validateMessage({ content: 'hi', tts: true, flags })).toMatchObject({ tts: true, flags });
    }
  });

  it('ignores unknown fields and the fields webhooks do not take here', () => {
    expect(validateMessage({ content: 'hi', nonce: 'x', username: 'other' })).toEqual(
      validateMessage({ content: 'hi' }),
    );
  });

  describe('empty messages: 400 / 50006', () => {
    it.each([
      ['no field at all', {}],
      ['null content', { content: null }],
      ['blank content', { content: '  \n ' }],
      ['empty embeds', { content: '', embeds: [] }],
      ['only tts', { tts: true }],
      ['only empty components and attachments', { components: [], attachments: [] }],
    ])('%s', (_name, body) => {
      const error = discordErrorOf(() => validateMessage(body));
      expect(error).toBeInstanceOf(EmptyMessageError);
      expect(error.toBody()).toEqual({ code: 50006, message: 'Cannot send an empty message' });
      expect(error.httpStatus).toBe(400);
    });

    it('reports form errors first', () => {
      expect(errorsOf({ content: 5 })).toEqual(oneError(['content'], 'BASE_TYPE_STRING'));
    });
  });

  it('refuses a body that is no object at the root', () => {
    expect(errorsOf('hi')).toEqual(
      oneError([], 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType'),
    );
    expect(errorsOf([], ['data'])).toEqual(oneError(['data'], 'MODEL_TYPE_CONVERT'));
  });

  describe('content', () => {
    it('takes 2000 characters (counted in code points) and refuses 2001', () => {
      expect(validateMessage({ content: 'x'.repeat(2000) }).content).toHaveLength(2000);
      expect(validateMessage({ content: '😀'.repeat(2000) }).content).toHaveLength(4000);
      expect(errorsOf({ content: 'x'.repeat(2001) })).toEqual(
        oneError(['content'], 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.'),
      );
    });

    it('places errors under the base path', () => {
      expect(errorsOf({ content: 'x'.repeat(2001) }, ['data'])).toEqual(
        oneError(['data', 'content'], 'BASE_TYPE_MAX_LENGTH'),
      );
    });

    it('refuses the NUL character', () => {
      expect(errorsOf({ content: 'a\u0000b' })).toEqual(oneError(['content'], 'STRING_TYPE_NUL_CHARACTER'));
    });
  });

  describe('tts', () => {
    it('must be a boolean', () => {
      expect(errorsOf({ content: 'a', tts: 'yes' })).toEqual(
        oneError(['tts'], 'BASE_TYPE_BOOLEAN', 'Must be either true or false.'),
      );
    });
  });

  describe('flags', () => {
    it.each([
      [2, 'CROSSPOSTED'],
      [128, 'LOADING'],
      [1 << 16, 'unknown bit'],
      [-1, 'negative'],
    ])('refuses %p (%s)', (flags) => {
      expect(errorsOf({ content: 'a', flags })).toEqual(oneError(['flags'], 'MESSAGE_FLAGS_INVALID'));
    });

    it('refuses IS_VOICE_MESSAGE, which needs an audio attachment', () => {
      expect(errorsOf({ content: 'a', flags: 8192 })).toEqual(
        oneError(
          ['flags'],
          'MESSAGE_FLAGS_INVALID',
          'IS_VOICE_MESSAGE (1 << 13) needs exactly one audio attachment',
        ),
      );
    });

    it('must be an integer', () => {
      expect(errorsOf({ content: 'a', flags: '64' })).toEqual(
        oneError(['flags'], 'NUMBER_TYPE_COERCE', 'Value "64" is not int.'),
      );
    });

    it('IS_COMPONENTS_V2 refuses content and embeds, and is empty without components', () => {
      expect(errorsOf({ content: 'a', embeds: [{ title: 't' }], flags: 32768 })).toEqual({
        content: {
          _errors: [
            {
              code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
              message: "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            },
          ],
        },
        embeds: {
          _errors: [
            {
              code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
              message: "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            },
          ],
        },
      });
      expect(discordErrorOf(() => validateMessage({ flags: 32768 }))).toBeInstanceOf(EmptyMessageError);
    });
  });

  describe('components, attachments, poll', () => {
    it('reads components at `components` (rules: components/read-message-components.test.ts)', () => {
      expect(errorsOf({ content: 'a', components: [{ type: 1, components: [] }] })).toEqual(
        oneError(['components', 0, 'components'], 'BASE_TYPE_MIN_LENGTH'),
      );
      const row = { type: 1, components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go' }] };
      expect(validateMessage({ components: [row] }).components).toEqual([
        { type: 1, id: 1, components: [{ type: 2, id: 2, style: 1, label: 'Go', custom_id: 'go' }] },
      ]);
      expect(
        validateMessage({ flags: 32768, components: [{ type: 10, content: 'only text' }] }).components,
      ).toEqual([{ type: 10, id: 1, content: 'only text' }]);
      expect(errorsOf({ content: 'a', components: 'x' })).toEqual(
        oneError(['components'], 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType'),
      );
    });

    it('refuses an attachment that names no uploaded file, and polls at their field', () => {
      expect(errorsOf({ content: 'a', attachments: [{ id: 0, filename: 'a.png' }] })).toEqual(
        oneError(['attachments', 0], 'ATTACHMENT_NOT_FOUND', 'Attachment data not found'),
      );
      expect(errorsOf({ content: 'a', poll: { question: { text: 'q' } } })).toEqual(
        oneError(['poll'], 'MESSAGE_POLL_UNSUPPORTED'),
      );
    });

    it('takes null and empty lists', () => {
      expect(validateMessage({ content: 'a', components: [], attachments: null, poll: null }).content).toBe(
        'a',
      );
    });
  });

  describe('allowed_mentions', () => {
    const withMentions = (allowed_mentions: unknown) => ({ content: 'a', allowed_mentions });

    it('takes the documented shapes', () => {
      for (const allowed of [
        { parse: [] },
        { parse: ['users', 'roles', 'everyone'] },
        { users: ['1300000000000000001'], roles: [], replied_user: true },
        { parse: ['everyone'], users: ['1300000000000000001'] },
        null,
      ]) {
        expect(validateMessage(withMentions(allowed)).content).toBe('a');
      }
    });

    it('refuses an unknown parse type at its index', () => {
      expect(errorsOf(withMentions({ parse: ['users', 'channels'] }))).toEqual(
        oneError(
          ['allowed_mentions', 'parse', 1],
          'BASE_TYPE_CHOICES',
          "Value must be one of ('users', 'roles', 'everyone').",
        ),
      );
    });

    it('refuses parse "users" together with a users list', () => {
      expect(errorsOf(withMentions({ parse: ['users'], users: ['1300000000000000001'] }))).toEqual(
        oneError(
          ['allowed_mentions'],
          'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
          'parse:["users"] and users: [ids] are mutually exclusive.',
        ),
      );
      expect(
        codesAt(errorsOf(withMentions({ parse: ['roles'], roles: ['1'] })), ['allowed_mentions']),
      ).toEqual(['MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE']);
    });

    it('checks ids: snowflakes, at most 100, no repeat', () => {
      const ids = Array.from({ length: 101 }, (_, i) => String(1300000000000000000n + BigInt(i)));
      expect(errorsOf(withMentions({ users: ids }))).toEqual(
        oneError(['allowed_mentions', 'users'], 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.'),
      );
      expect(errorsOf(withMentions({ roles: ['abc'] }))).toEqual(
        oneError(['allowed_mentions', 'roles', 0], 'NUMBER_TYPE_COERCE', 'Value "abc" is not snowflake.'),
      );
      expect(errorsOf(withMentions({ users: ['1', '1'] }))).toEqual(
        oneError(['allowed_mentions', 'users', 1], 'SET_TYPE_ALREADY_CONTAINS_VALUE'),
      );
    });

    it('checks types', () => {
      expect(errorsOf(withMentions('all'))).toEqual(oneError(['allowed_mentions'], 'MODEL_TYPE_CONVERT'));
      expect(errorsOf(withMentions({ replied_user: 1 }))).toEqual(
        oneError(['allowed_mentions', 'replied_user'], 'BASE_TYPE_BOOLEAN'),
      );
    });
  });

  it('reports every error of a body at once', () => {
    const tree = errorsOf({ content: 'x'.repeat(2001), tts: 1, flags: 2 });
    expect(codesAt(tree, ['content'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(tree, ['tts'])).toEqual(['BASE_TYPE_BOOLEAN']);
    expect(codesAt(tree, ['flags'])).toEqual(['MESSAGE_FLAGS_INVALID']);
    const withComponents = errorsOf({ content: 'x'.repeat(2001), components: [{}] });
    expect(codesAt(withComponents, ['content'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(withComponents, ['components', 0, 'type'])).toEqual(['BASE_TYPE_REQUIRED']);
  });
});

describe('validateMessageEdit', () => {
  it('keeps only the fields present; null clears', () => {
    expect(validateMessageEdit({})).toEqual({});
    expect(validateMessageEdit({ content: 'new' })).toEqual({ content: 'new' });
    expect(validateMessageEdit({ content: null, embeds: null })).toEqual({ content: '', embeds: [] });
    expect(validateMessageEdit({ flags: 4, tts: true })).toEqual({ flags: 4 });
  });

  it('applies the rules of a new message to each field', () => {
    const tree = formErrorsOf(() =>
      validateMessageEdit({ content: 'x'.repeat(2001), embeds: [{ title: 'x'.repeat(257) }], flags: 128 }),
    );
    expect(codesAt(tree, ['content'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(tree, ['embeds', 0, 'title'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(tree, ['flags'])).toEqual(['MESSAGE_FLAGS_INVALID']);
  });

  it('keeps components for the edit to read against the final flags, and refuses a body that is no object', () => {
    expect(validateMessageEdit({ components: [{ type: 1 }] })).toEqual({ components: [{ type: 1 }] });
    expect(formErrorsOf(() => validateMessageEdit(7))).toEqual(oneError([], 'MODEL_TYPE_CONVERT'));
  });
});
