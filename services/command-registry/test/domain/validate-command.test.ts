import { FormErrors } from '@acs/validation';
import { collectCommandErrors, validateCommand } from '../../src/domain/validate-command';
import { GLOBAL, GLOBAL_EMBEDDED, GUILD, commandErrors, oneError, slash } from './helpers';

describe('validateCommand: normalization', () => {
  it('fills the defaults of a minimal global CHAT_INPUT command', () => {
    expect(validateCommand(slash(), GLOBAL)).toEqual({
      type: 1,
      name: 'ping',
      name_localizations: null,
      description: 'Replies with pong',
      description_localizations: null,
      default_member_permissions: null,
      dm_permission: true,
      contexts: null,
      integration_types: [0],
      nsfw: false,
    });
  });

  it('omits the global-only fields on guild commands, even when sent', () => {
    const command = validateCommand(
      slash({ dm_permission: 'not a boolean', contexts: [1, 1, 9], integration_types: 'x' }),
      GUILD,
    );
    expect(command).toEqual({
      type: 1,
      name: 'ping',
      name_localizations: null,
      description: 'Replies with pong',
      description_localizations: null,
      default_member_permissions: null,
      nsfw: false,
    });
  });

  it('ignores client-supplied id, application_id, version, guild_id and unknown fields', () => {
    const command = validateCommand(
      slash({
        id: 'abc',
        application_id: 1,
        version: 'v',
        guild_id: {},
        default_permission: true,
        extra: [1],
      }),
      GLOBAL,
    );
    expect(Object.keys(command).sort()).toEqual(
      [
        'type',
        'name',
        'name_localizations',
        'description',
        'description_localizations',
        'default_member_permissions',
        'dm_permission',
        'contexts',
        'integration_types',
        'nsfw',
      ].sort(),
    );
  });

  it('treats null like an absent field', () => {
    const command = validateCommand(
      slash({
        type: null,
        name_localizations: null,
        options: null,
        default_member_permissions: null,
        dm_permission: null,
        contexts: null,
        integration_types: null,
        nsfw: null,
        handler: null,
      }),
      GLOBAL,
    );
    expect(command).toMatchObject({ type: 1, dm_permission: true, integration_types: [0], nsfw: false });
    expect(command).not.toHaveProperty('options');
    expect(command).not.toHaveProperty('handler');
  });

  it('omits an empty options array', () => {
    expect(validateCommand(slash({ options: [] }), GLOBAL)).not.toHaveProperty('options');
  });

  it('keeps contexts, integration_types, dm_permission and nsfw as given', () => {
    expect(
      validateCommand(
        slash({ contexts: [0, 2], integration_types: [1, 0], dm_permission: false, nsfw: true }),
        GLOBAL,
      ),
    ).toMatchObject({ contexts: [0, 2], integration_types: [1, 0], dm_permission: false, nsfw: true });
  });
});

describe('validateCommand: body and type', () => {
  it.each([
    ['a string', 'ping'],
    ['an array', [slash()]],
    ['null', null],
    ['a number', 3],
  ])('rejects %s as body with a request-level MODEL_TYPE_CONVERT', (_, body) => {
    expect(commandErrors(body)).toEqual({
      _errors: [{ code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }],
    });
  });

  it.each([0, 5, -1, 99])('rejects type %p with BASE_TYPE_CHOICES', (type) => {
    expect(commandErrors(slash({ type }))).toEqual(
      oneError(['type'], 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2, 3, 4).'),
    );
  });

  it.each([
    ['"1"', '1'],
    ['1.5', 1.5],
    ['true', true],
  ])('rejects a non-integer type %s with NUMBER_TYPE_COERCE', (shown, type) => {
    expect(commandErrors(slash({ type }))).toEqual(
      oneError(['type'], 'NUMBER_TYPE_COERCE', `Value "${shown.replace(/"/g, '')}" is not int.`),
    );
  });

  it('collects every error of the body in one tree', () => {
    expect(
      commandErrors({ name: 'Bad Name', description: '', nsfw: 'yes', default_member_permissions: -1 }),
    ).toEqual({
      name: { _errors: [{ code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' }] },
      description: {
        _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }],
      },
      nsfw: { _errors: [{ code: 'BASE_TYPE_BOOLEAN', message: 'Must be either true or false.' }] },
      default_member_permissions: {
        _errors: [{ code: 'NUMBER_TYPE_MIN', message: 'int value should be greater than or equal to 0.' }],
      },
    });
  });
});

describe('validateCommand: CHAT_INPUT names', () => {
  it.each([
    'ping',
    'get-user',
    'snake_case',
    "it's",
    'число',
    'नमस्ते',
    'สวัสดี',
    '日本語',
    'a',
    'x'.repeat(32),
    'ß',
    '123',
  ])('accepts %p', (name) => {
    expect(validateCommand(slash({ name }), GLOBAL).name).toBe(name);
  });

  it.each(['Ping', 'PING', 'has space', 'dot.name', 'emoji😀', 'colon:', 'Число', 'ÉCOLE'])(
    'rejects %p with APPLICATION_COMMAND_INVALID_NAME',
    (name) => {
      expect(commandErrors(slash({ name }))).toEqual(
        oneError(['name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid'),
      );
    },
  );

  it.each(['', 'x'.repeat(33)])('rejects length case %# with BASE_TYPE_BAD_LENGTH', (name) => {
    expect(commandErrors(slash({ name }))).toEqual(
      oneError(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 32 in length.'),
    );
  });

  it('counts length in code points', () => {
    expect(validateCommand(slash({ name: 'ñ'.repeat(32) }), GLOBAL).name).toHaveLength(32);
  });

  it.each([undefined, null])('requires a name (%p)', (name) => {
    expect(commandErrors(slash({ name }))).toEqual(
      oneError(['name'], 'BASE_TYPE_REQUIRED', 'This field is required'),
    );
  });

  it('rejects a non-string name with BASE_TYPE_STRING', () => {
    expect(commandErrors(slash({ name: 123 }))).toEqual(
      oneError(['name'], 'BASE_TYPE_STRING', 'Could not interpret "123" as string.'),
    );
  });
});

describe('validateCommand: USER, MESSAGE and PRIMARY_ENTRY_POINT names', () => {
  it.each([2, 3])('type %p accepts mixed case and spaces', (type) => {
    expect(validateCommand({ type, name: 'Report Message!' }, GLOBAL).name).toBe('Report Message!');
  });

  it.each([2, 3])('type %p still limits the length to 1-32', (type) => {
    expect(commandErrors({ type, name: 'N'.repeat(33) })).toEqual(
      oneError(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 32 in length.'),
    );
  });

  it('entry points accept mixed case', () => {
    expect(validateCommand({ type: 4, name: 'Launch Game' }, GLOBAL_EMBEDDED).name).toBe('Launch Game');
  });
});

describe('validateCommand: descriptions', () => {
  it.each([undefined, null])('CHAT_INPUT requires a description (%p)', (description) => {
    expect(commandErrors(slash({ description }))).toEqual(
      oneError(['description'], 'BASE_TYPE_REQUIRED', 'This field is required'),
    );
  });

  it.each(['', 'd'.repeat(101)])('CHAT_INPUT description length %# is 1-100', (description) => {
    expect(commandErrors(slash({ description }))).toEqual(
      oneError(['description'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.'),
    );
  });

  it('rejects a non-string description', () => {
    expect(commandErrors(slash({ description: false }))).toEqual(
      oneError(['description'], 'BASE_TYPE_STRING', 'Could not interpret "false" as string.'),
    );
  });

  it.each([
    [2, undefined],
    [2, ''],
    [3, null],
    [3, ''],
  ])('type %p with description %p is stored as ""', (type, description) => {
    expect(validateCommand({ type, name: 'Info', description }, GLOBAL).description).toBe('');
  });

  it.each([2, 3])('type %p rejects a non-empty description', (type) => {
    expect(commandErrors({ type, name: 'Info', description: 'Shows info' })).toEqual(
      oneError(
        ['description'],
        'APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION_INVALID',
        'Context menu commands cannot have description',
      ),
    );
  });

  it('entry point descriptions are optional and at most 100', () => {
    expect(validateCommand({ type: 4, name: 'Launch' }, GLOBAL_EMBEDDED).description).toBe('');
    expect(
      validateCommand({ type: 4, name: 'Launch', description: 'Play' }, GLOBAL_EMBEDDED).description,
    ).toBe('Play');
    expect(commandErrors({ type: 4, name: 'Launch', description: 'd'.repeat(101) }, GLOBAL_EMBEDDED)).toEqual(
      oneError(['description'], 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.'),
    );
  });
});

describe('validateCommand: options on non-CHAT_INPUT commands', () => {
  it.each([2, 3])('type %p rejects non-empty options', (type) => {
    expect(
      commandErrors({ type, name: 'Info', options: [{ type: 3, name: 'a', description: 'b' }] }),
    ).toEqual(
      oneError(
        ['options'],
        'APPLICATION_COMMAND_OPTIONS_INVALID',
        'Only CHAT_INPUT (1) commands can have options',
      ),
    );
  });

  it('entry points reject non-empty options', () => {
    expect(
      commandErrors(
        { type: 4, name: 'Launch', options: [{ type: 3, name: 'a', description: 'b' }] },
        GLOBAL_EMBEDDED,
      ),
    ).toEqual(oneError(['options'], 'APPLICATION_COMMAND_OPTIONS_INVALID'));
  });

  it('accepts and drops an empty options array on context menus', () => {
    expect(validateCommand({ type: 2, name: 'Info', options: [] }, GLOBAL)).not.toHaveProperty('options');
  });
});

describe('validateCommand: default_member_permissions', () => {
  it.each([
    ['8', '8'],
    [8, '8'],
    ['0', '0'],
    [0, '0'],
    ['0008', '8'],
    ['18014398509481983', '18014398509481983'],
  ])('normalizes %p to %p', (input, expected) => {
    expect(
      validateCommand(slash({ default_member_permissions: input }), GLOBAL).default_member_permissions,
    ).toBe(expected);
  });

  it('rejects values above 2^54-1 with NUMBER_TYPE_MAX', () => {
    expect(commandErrors(slash({ default_member_permissions: '18014398509481984' }))).toEqual(
      oneError(
        ['default_member_permissions'],
        'NUMBER_TYPE_MAX',
        'int value should be less than or equal to 18014398509481983.',
      ),
    );
  });

  it.each([-1, '-8'])('rejects negative %p with NUMBER_TYPE_MIN', (value) => {
    expect(commandErrors(slash({ default_member_permissions: value }))).toEqual(
      oneError(
        ['default_member_permissions'],
        'NUMBER_TYPE_MIN',
        'int value should be greater than or equal to 0.',
      ),
    );
  });

  it.each([
    ['abc', 'abc'],
    ['1.5', '1.5'],
    [1.5, '1.5'],
    [true, 'true'],
    ['', ''],
  ])('rejects %p with NUMBER_TYPE_COERCE', (value, shown) => {
    expect(commandErrors(slash({ default_member_permissions: value }))).toEqual(
      oneError(['default_member_permissions'], 'NUMBER_TYPE_COERCE', `Value "${shown}" is not int.`),
    );
  });
});

describe('validateCommand: dm_permission, nsfw', () => {
  it.each(['dm_permission', 'nsfw'])('%s must be a boolean', (field) => {
    expect(commandErrors(slash({ [field]: 'true' }))).toEqual(
      oneError([field], 'BASE_TYPE_BOOLEAN', 'Must be either true or false.'),
    );
  });

  it('nsfw is validated on guild commands too', () => {
    expect(commandErrors(slash({ nsfw: 1 }), GUILD)).toEqual(oneError(['nsfw'], 'BASE_TYPE_BOOLEAN'));
  });
});

describe('validateCommand: contexts and integration_types (global)', () => {
  it.each([
    ['contexts', [3], 0, 'Value must be one of (0, 1, 2).'],
    ['integration_types', [0, 2], 1, 'Value must be one of (0, 1).'],
  ])('%s rejects unknown values at their index', (field, value, index, message) => {
    expect(commandErrors(slash({ [field]: value }))).toEqual(
      oneError([field, index], 'BASE_TYPE_CHOICES', message),
    );
  });

  it.each(['contexts', 'integration_types'])('%s rejects duplicates at the repeat', (field) => {
    expect(commandErrors(slash({ [field]: [0, 1, 0] }))).toEqual(
      oneError([field, 2], 'SET_TYPE_ALREADY_CONTAINS_VALUE', 'The set already contains this value'),
    );
  });

  it.each(['contexts', 'integration_types'])('%s rejects an empty list', (field) => {
    expect(commandErrors(slash({ [field]: [] }))).toEqual(
      oneError([field], 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.'),
    );
  });

  it.each(['contexts', 'integration_types'])('%s must be a list', (field) => {
    expect(commandErrors(slash({ [field]: 0 }))).toEqual(
      oneError([field], 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType'),
    );
  });

  it('rejects non-integer items with NUMBER_TYPE_COERCE', () => {
    expect(commandErrors(slash({ contexts: ['0'] }))).toEqual(
      oneError(['contexts', 0], 'NUMBER_TYPE_COERCE', 'Value "0" is not int.'),
    );
  });

  it('accepts BOT_DM in contexts of global commands', () => {
    expect(validateCommand(slash({ contexts: [1] }), GLOBAL).contexts).toEqual([1]);
  });
});

describe('validateCommand: PRIMARY_ENTRY_POINT and handler', () => {
  it('normalizes a global entry point of an EMBEDDED app, handler defaulting to 1', () => {
    expect(
      validateCommand({ type: 4, name: 'launch', description: 'Launch the game' }, GLOBAL_EMBEDDED),
    ).toEqual({
      type: 4,
      name: 'launch',
      name_localizations: null,
      description: 'Launch the game',
      description_localizations: null,
      default_member_permissions: null,
      dm_permission: true,
      contexts: null,
      integration_types: [0],
      nsfw: false,
      handler: 1,
    });
  });

  it('keeps handler 2 (DISCORD_LAUNCH_ACTIVITY)', () => {
    expect(validateCommand({ type: 4, name: 'Launch', handler: 2 }, GLOBAL_EMBEDDED).handler).toBe(2);
  });

  it('rejects entry points of apps without the EMBEDDED flag', () => {
    expect(commandErrors({ type: 4, name: 'Launch' }, GLOBAL)).toEqual(
      oneError(
        ['type'],
        'APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_INVALID',
        'PRIMARY_ENTRY_POINT (4) commands are only allowed for applications with the EMBEDDED flag (1 << 17), i.e. with an Activity',
      ),
    );
  });

  it('rejects entry points at guild scope, even for EMBEDDED apps', () => {
    expect(commandErrors({ type: 4, name: 'Launch' }, { scope: 'guild', applicationFlags: 1 << 17 })).toEqual(
      oneError(
        ['type'],
        'APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_INVALID',
        'PRIMARY_ENTRY_POINT (4) commands can only be global; guild commands may be CHAT_INPUT (1), USER (2) or MESSAGE (3)',
      ),
    );
  });

  it('reads the EMBEDDED bit among other flags', () => {
    const ctx = { scope: 'global' as const, applicationFlags: (1 << 17) | (1 << 23) | (1 << 12) };
    expect(validateCommand({ type: 4, name: 'Launch' }, ctx).type).toBe(4);
  });

  it.each([0, 3])('rejects handler %p with BASE_TYPE_CHOICES', (handler) => {
    expect(commandErrors({ type: 4, name: 'Launch', handler }, GLOBAL_EMBEDDED)).toEqual(
      oneError(['handler'], 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2).'),
    );
  });

  it.each([1, 2, 3])('rejects handler on command type %p', (type) => {
    const body = type === 1 ? slash({ handler: 1 }) : { type, name: 'Info', handler: 1 };
    expect(commandErrors(body)).toEqual(
      oneError(
        ['handler'],
        'APPLICATION_COMMAND_HANDLER_INVALID',
        'handler can only be set on PRIMARY_ENTRY_POINT (4) commands',
      ),
    );
  });
});

describe('collectCommandErrors', () => {
  it('records errors under the base path and returns undefined', () => {
    const errors = new FormErrors();
    expect(collectCommandErrors(slash({ name: 'Bad' }), GLOBAL, errors, [3])).toBeUndefined();
    expect(errors.toJSON()).toEqual(oneError([3, 'name'], 'APPLICATION_COMMAND_INVALID_NAME'));
  });

  it('returns the normalized command and records nothing for a valid body', () => {
    const errors = new FormErrors();
    expect(collectCommandErrors(slash(), GLOBAL, errors, [0])).toMatchObject({ name: 'ping' });
    expect(errors.isEmpty()).toBe(true);
  });
});
