import { checkChannelReferences, type ChannelReferences } from '../../src/domain/check-channel-references';
import { ChannelType } from '../../src/domain/channel-types';
import { PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';
import { validateCreateChannel, type CreateChannelInput } from '../../src/domain/validate-create-channel';
import { resolveMemberRoles, validatePutMember } from '../../src/domain/validate-put-member';
import { formErrorsOf, oneError } from '../support/errors';

const GUILD = '100';

describe('validatePutMember', () => {
  it('keeps what is absent and reads roles and nick', () => {
    expect(validatePutMember({})).toEqual({});
    expect(validatePutMember({ roles: ['1', 2], nick: 'bob' })).toEqual({ roles: ['1', '2'], nick: 'bob' });
    expect(validatePutMember({ nick: null, roles: null })).toEqual({ nick: null });
  });

  it('names the bad role index and the bad nick', () => {
    expect(formErrorsOf(() => validatePutMember({ roles: ['1', 'x'], nick: '' }))).toEqual({
      roles: { '1': { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "x" is not snowflake.' }] } },
      nick: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 32 in length.' }] },
    });
    expect(formErrorsOf(() => validatePutMember({ roles: '1' }))).toEqual(
      oneError(['roles'], 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType'),
    );
    expect(formErrorsOf(() => validatePutMember({ nick: 'n'.repeat(33) }))).toEqual(
      oneError(['nick'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 32 in length.'),
    );
  });

  it('checks roles against the guild: unknown ones at their index; @everyone and repeats dropped', () => {
    const guildRoles = new Map([GUILD, '201', '202'].map((id) => [id, null]));
    expect(resolveMemberRoles(['202', GUILD, '201', '202'], GUILD, '7', guildRoles)).toEqual(['202', '201']);
    expect(formErrorsOf(() => resolveMemberRoles(['201', '999'], GUILD, '7', guildRoles))).toEqual(
      oneError(['roles', 1], 'UNKNOWN_ROLE', 'Unknown Role'),
    );
  });

  it("refuses another bot's managed role and keeps the member's own", () => {
    const guildRoles = new Map<string, string | null>([
      [GUILD, null],
      ['201', null],
      ['301', '900'],
      ['302', '901'],
    ]);
    expect(formErrorsOf(() => resolveMemberRoles(['201', '301'], GUILD, '7', guildRoles))).toEqual(
      oneError(['roles', 1], 'ROLE_MANAGED', "A bot's managed role cannot be assigned to another member"),
    );
    expect(resolveMemberRoles(['201'], GUILD, '900', guildRoles)).toEqual(['201', '301']);
    expect(resolveMemberRoles(['301', '201'], GUILD, '900', guildRoles)).toEqual(['301', '201']);
  });
});

describe('validateCreateChannel', () => {
  it('reads a channel with overwrites, allow and deny defaulting to 0', () => {
    expect(
      validateCreateChannel({
        name: 'general',
        type: 0,
        permission_overwrites: [
          { id: GUILD, type: 0, deny: String(P.VIEW_CHANNEL) },
          { id: '7', type: 1, allow: 2048 },
        ],
      }),
    ).toEqual({
      name: 'general',
      type: 0,
      parentId: null,
      overwrites: [
        { id: GUILD, type: 0, allow: 0n, deny: P.VIEW_CHANNEL },
        { id: '7', type: 1, allow: P.SEND_MESSAGES, deny: 0n },
      ],
    });
  });

  it('requires name and type and knows the guild channel types', () => {
    expect(formErrorsOf(() => validateCreateChannel({}))).toEqual({
      name: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
      type: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
    });
    expect(formErrorsOf(() => validateCreateChannel({ name: 'dm', type: 1 }))).toEqual(
      oneError(
        ['type'],
        'BASE_TYPE_CHOICES',
        'Value must be one of (0, 2, 4, 5, 10, 11, 12, 13, 14, 15, 16).',
      ),
    );
  });

  it('names each bad overwrite field by index', () => {
    const tree = formErrorsOf(() =>
      validateCreateChannel({
        name: 'c',
        type: 0,
        parent_id: 'p',
        permission_overwrites: [{ id: '1', type: 2 }, 'x', { type: 0, allow: 'all' }, { id: '1', type: 1 }],
      }),
    );
    expect(tree).toEqual({
      parent_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "p" is not snowflake.' }] },
      permission_overwrites: {
        '0': { type: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (0, 1).' }] } },
        '1': {
          _errors: [{ code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }],
        },
        '2': {
          id: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
          allow: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "all" is not int.' }] },
        },
      },
    });
  });

  it('refuses the same overwrite target twice', () => {
    expect(
      formErrorsOf(() =>
        validateCreateChannel({
          name: 'c',
          type: 0,
          permission_overwrites: [
            { id: '5', type: 0 },
            { id: '5', type: 1 },
          ],
        }),
      ),
    ).toEqual(
      oneError(
        ['permission_overwrites', 1, 'id'],
        'SET_TYPE_ALREADY_CONTAINS_VALUE',
        'The set already contains this value',
      ),
    );
  });
});

describe('checkChannelReferences', () => {
  const input = (overrides: Partial<CreateChannelInput>): CreateChannelInput => ({
    name: 'c',
    type: ChannelType.GUILD_TEXT,
    parentId: null,
    overwrites: [],
    ...overrides,
  });
  const refs = (parentType?: number): ChannelReferences => ({
    parent: parentType === undefined ? null : { type: parentType },
    roleIds: new Set([GUILD, '201']),
  });

  it('accepts a channel in a category and threads in the channels that hold them', () => {
    expect(() =>
      checkChannelReferences(input({ parentId: '9' }), refs(ChannelType.GUILD_CATEGORY)),
    ).not.toThrow();
    expect(() =>
      checkChannelReferences(input({ type: 11, parentId: '9' }), refs(ChannelType.GUILD_FORUM)),
    ).not.toThrow();
    expect(() =>
      checkChannelReferences(input({ type: 12, parentId: '9' }), refs(ChannelType.GUILD_TEXT)),
    ).not.toThrow();
    expect(() =>
      checkChannelReferences(input({ type: 10, parentId: '9' }), refs(ChannelType.GUILD_ANNOUNCEMENT)),
    ).not.toThrow();
  });

  it('requires a parent for a thread, of the right type, and no overwrites', () => {
    expect(formErrorsOf(() => checkChannelReferences(input({ type: 11 }), refs()))).toEqual(
      oneError(['parent_id'], 'BASE_TYPE_REQUIRED', 'This field is required'),
    );
    expect(formErrorsOf(() => checkChannelReferences(input({ type: 11, parentId: '9' }), refs()))).toEqual(
      oneError(['parent_id'], 'CHANNEL_PARENT_INVALID', 'Unknown Channel'),
    );
    expect(
      formErrorsOf(() =>
        checkChannelReferences(input({ type: 10, parentId: '9' }), refs(ChannelType.GUILD_TEXT)),
      ),
    ).toEqual(
      oneError(
        ['parent_id'],
        'CHANNEL_PARENT_INVALID',
        'A thread of type 10 must be in a channel of type 5.',
      ),
    );
    const overwrites = [{ id: GUILD, type: 0 as const, allow: 0n, deny: 0n }];
    expect(
      formErrorsOf(() =>
        checkChannelReferences(input({ type: 11, parentId: '9', overwrites }), refs(ChannelType.GUILD_TEXT)),
      ),
    ).toEqual(
      oneError(
        ['permission_overwrites'],
        'CHANNEL_OVERWRITES_INVALID',
        "Threads have no permission overwrites; they use their parent channel's.",
      ),
    );
  });

  it('only lets categories be parents of channels, and categories have none', () => {
    expect(
      formErrorsOf(() => checkChannelReferences(input({ parentId: '9' }), refs(ChannelType.GUILD_TEXT))),
    ).toEqual(oneError(['parent_id'], 'CHANNEL_PARENT_INVALID', 'The parent must be a category (type 4).'));
    expect(
      formErrorsOf(() =>
        checkChannelReferences(input({ type: 4, parentId: '9' }), refs(ChannelType.GUILD_CATEGORY)),
      ),
    ).toEqual(oneError(['parent_id'], 'CHANNEL_PARENT_INVALID', 'A category cannot have a parent.'));
  });

  it('requires role overwrites to name roles of the guild, but not member overwrites', () => {
    const overwrites = [
      { id: '201', type: 0 as const, allow: 0n, deny: 0n },
      { id: '999', type: 1 as const, allow: 0n, deny: 0n },
      { id: '998', type: 0 as const, allow: 0n, deny: 0n },
    ];
    expect(formErrorsOf(() => checkChannelReferences(input({ overwrites }), refs()))).toEqual(
      oneError(['permission_overwrites', 2, 'id'], 'UNKNOWN_ROLE', 'Unknown Role'),
    );
  });
});
