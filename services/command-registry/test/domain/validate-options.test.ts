import { validateCommand } from '../../src/domain/validate-command';
import { GLOBAL, commandErrors, oneError, slash, stringOption, withOption } from './helpers';

const sub = (name: string, options?: unknown[]) => ({
  type: 1,
  name,
  description: `The ${name} sub-command`,
  ...(options ? { options } : {}),
});
const group = (name: string, options?: unknown[]) => ({
  type: 2,
  name,
  description: `The ${name} group`,
  ...(options ? { options } : {}),
});

describe('options: shape', () => {
  it('rejects a non-list options field', () => {
    expect(commandErrors(slash({ options: { type: 3 } }))).toEqual(
      oneError(['options'], 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType'),
    );
  });

  it('rejects non-object options with MODEL_TYPE_CONVERT at their index', () => {
    expect(commandErrors(slash({ options: [stringOption(), 'x'] }))).toEqual(
      oneError(['options', 1], 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType'),
    );
  });

  it('allows 25 options and rejects 26 with BASE_TYPE_MAX_LENGTH on the array', () => {
    const options = (n: number) => Array.from({ length: n }, (_, i) => stringOption({ name: `o${i}` }));
    expect(validateCommand(slash({ options: options(25) }), GLOBAL).options).toHaveLength(25);
    expect(commandErrors(slash({ options: options(26) }))).toEqual(
      oneError(['options'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.'),
    );
  });

  it('requires type with TAG_FIELD_MISSING on the option itself', () => {
    expect(commandErrors(withOption({ name: 'a', description: 'b' }))).toEqual(
      oneError(['options', 0], 'TAG_FIELD_MISSING', 'Field "type" is required to determine the model type.'),
    );
  });

  it.each([0, 12, -3])('rejects option type %p with BASE_TYPE_CHOICES', (type) => {
    expect(commandErrors(withOption(stringOption({ type })))).toEqual(
      oneError(
        ['options', 0, 'type'],
        'BASE_TYPE_CHOICES',
        'Value must be one of (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11).',
      ),
    );
  });

  it('rejects a non-integer option type', () => {
    expect(commandErrors(withOption(stringOption({ type: 'STRING' })))).toEqual(
      oneError(['options', 0, 'type'], 'NUMBER_TYPE_COERCE', 'Value "STRING" is not int.'),
    );
  });

  it.each([3, 4, 5, 6, 7, 8, 9, 10, 11])('accepts value option type %p', (type) => {
    expect(validateCommand(withOption(stringOption({ type })), GLOBAL).options?.[0]?.type).toBe(type);
  });
});

describe('options: names and descriptions', () => {
  it.each(['Text', 'two words', 'a.b'])(
    'rejects option name %p with APPLICATION_COMMAND_INVALID_NAME',
    (name) => {
      expect(commandErrors(withOption(stringOption({ name })))).toEqual(
        oneError(['options', 0, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid'),
      );
    },
  );

  it('applies the lowercase rule to option names of context-free letters too', () => {
    expect(validateCommand(withOption(stringOption({ name: 'город' })), GLOBAL).options?.[0]?.name).toBe(
      'город',
    );
  });

  it.each([
    ['name', '', 'Must be between 1 and 32 in length.'],
    ['name', 'n'.repeat(33), 'Must be between 1 and 32 in length.'],
    ['description', '', 'Must be between 1 and 100 in length.'],
    ['description', 'd'.repeat(101), 'Must be between 1 and 100 in length.'],
  ])('rejects %s %p with BASE_TYPE_BAD_LENGTH', (field, value, message) => {
    expect(commandErrors(withOption(stringOption({ [field]: value })))).toEqual(
      oneError(['options', 0, field], 'BASE_TYPE_BAD_LENGTH', message),
    );
  });

  it.each(['name', 'description'])('requires %s', (field) => {
    expect(commandErrors(withOption(stringOption({ [field]: undefined })))).toEqual(
      oneError(['options', 0, field], 'BASE_TYPE_REQUIRED', 'This field is required'),
    );
  });

  it('rejects duplicate names at the later option', () => {
    expect(
      commandErrors(slash({ options: [stringOption(), stringOption({ type: 4 }), stringOption()] })),
    ).toEqual({
      options: {
        '1': {
          name: {
            _errors: [
              {
                code: 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS',
                message: 'Option names must be unique',
              },
            ],
          },
        },
        '2': {
          name: {
            _errors: [
              {
                code: 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS',
                message: 'Option names must be unique',
              },
            ],
          },
        },
      },
    });
  });

  it('allows the same option name in different sub-commands', () => {
    const body = slash({ options: [sub('add', [stringOption()]), sub('remove', [stringOption()])] });
    expect(validateCommand(body, GLOBAL).options).toHaveLength(2);
  });

  it('rejects duplicate sub-command names', () => {
    expect(commandErrors(slash({ options: [sub('add'), sub('add')] }))).toEqual(
      oneError(['options', 1, 'name'], 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS'),
    );
  });
});

describe('options: required', () => {
  it('keeps required only when true', () => {
    const command = validateCommand(
      slash({
        options: [stringOption({ name: 'a', required: true }), stringOption({ name: 'b', required: false })],
      }),
      GLOBAL,
    );
    expect(command.options?.[0]).toHaveProperty('required', true);
    expect(command.options?.[1]).not.toHaveProperty('required');
  });

  it('rejects a required option after an optional one, once, on the first offender', () => {
    const options = [
      stringOption({ name: 'a', required: true }),
      stringOption({ name: 'b' }),
      stringOption({ name: 'c', required: true }),
      stringOption({ name: 'd', required: true }),
    ];
    expect(commandErrors(slash({ options }))).toEqual(
      oneError(
        ['options', 2],
        'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
        'Required options must be placed before non-required options',
      ),
    );
  });

  it('checks the order inside sub-commands at their own path', () => {
    const options = [sub('run', [stringOption({ name: 'a' }), stringOption({ name: 'b', required: true })])];
    expect(commandErrors(slash({ options }))).toEqual(
      oneError(['options', 0, 'options', 1], 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID'),
    );
  });

  it('rejects a non-boolean required', () => {
    expect(commandErrors(withOption(stringOption({ required: 'yes' })))).toEqual(
      oneError(['options', 0, 'required'], 'BASE_TYPE_BOOLEAN', 'Must be either true or false.'),
    );
  });

  it.each([
    ['SUB_COMMAND', sub('run')],
    ['SUB_COMMAND_GROUP', group('admin', [sub('run')])],
  ])('rejects required: true on a %s', (_, option) => {
    expect(commandErrors(withOption({ ...option, required: true }))).toEqual(
      oneError(
        ['options', 0, 'required'],
        'APPLICATION_COMMAND_REQUIRED_INVALID',
        'Required cannot be configured for this type of option',
      ),
    );
  });

  it('accepts required: false on a sub-command and drops it', () => {
    expect(validateCommand(withOption({ ...sub('run'), required: false }), GLOBAL).options?.[0]).toEqual({
      type: 1,
      name: 'run',
      description: 'The run sub-command',
    });
  });
});

describe('options: nesting', () => {
  it('accepts groups and sub-commands side by side at the top level', () => {
    const body = slash({ options: [group('admin', [sub('ban', [stringOption()])]), sub('help')] });
    expect(validateCommand(body, GLOBAL).options).toEqual([
      {
        type: 2,
        name: 'admin',
        description: 'The admin group',
        options: [
          {
            type: 1,
            name: 'ban',
            description: 'The ban sub-command',
            options: [{ type: 3, name: 'text', description: 'Some text' }],
          },
        ],
      },
      { type: 1, name: 'help', description: 'The help sub-command' },
    ]);
  });

  it('rejects value options beside sub-commands at the top level', () => {
    expect(commandErrors(slash({ options: [sub('help'), stringOption()] }))).toEqual(
      oneError(
        ['options'],
        'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
        'Sub-command and sub-command group option types are mutually exclusive to all other types',
      ),
    );
  });

  it('rejects a value option inside a group', () => {
    expect(commandErrors(withOption(group('admin', [sub('ban'), stringOption()])))).toEqual(
      oneError(
        ['options', 0, 'options', 1, 'type'],
        'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
        'Sub-command groups can only contain SUB_COMMAND (1) options',
      ),
    );
  });

  it('rejects a group inside a group', () => {
    expect(commandErrors(withOption(group('a', [group('b', [sub('c')])])))).toEqual(
      oneError(['options', 0, 'options', 0, 'type'], 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID'),
    );
  });

  it.each([
    ['a sub-command', sub('deeper')],
    ['a group', group('deeper', [sub('x')])],
  ])('rejects %s inside a sub-command', (_, inner) => {
    expect(commandErrors(withOption(sub('run', [inner])))).toEqual(
      oneError(
        ['options', 0, 'options', 0, 'type'],
        'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
        'Sub-commands can only contain value options (types 3-11); nesting stops at group > sub-command > option',
      ),
    );
  });

  it('rejects anything below a sub-command inside a group', () => {
    expect(commandErrors(withOption(group('g', [sub('s', [sub('t')])])))).toEqual(
      oneError(
        ['options', 0, 'options', 0, 'options', 0, 'type'],
        'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
      ),
    );
  });

  it.each([
    [undefined, 'BASE_TYPE_REQUIRED', 'This field is required'],
    [[], 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.'],
  ])('requires a group to hold sub-commands (options %p)', (options, code, message) => {
    expect(commandErrors(withOption({ ...group('admin'), options }))).toEqual(
      oneError(['options', 0, 'options'], code, message),
    );
  });

  it('rejects options under a value option', () => {
    expect(commandErrors(withOption(stringOption({ options: [stringOption()] })))).toEqual(
      oneError(
        ['options', 0, 'options'],
        'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
        'Only SUB_COMMAND (1) and SUB_COMMAND_GROUP (2) options can have options',
      ),
    );
  });

  it('limits options inside sub-commands to 25', () => {
    const many = Array.from({ length: 26 }, (_, i) => stringOption({ name: `o${i}` }));
    expect(commandErrors(withOption(sub('run', many)))).toEqual(
      oneError(['options', 0, 'options'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.'),
    );
  });
});

describe('options: autocomplete', () => {
  it.each([3, 4, 10])('keeps autocomplete: true on type %p', (type) => {
    expect(
      validateCommand(withOption(stringOption({ type, autocomplete: true })), GLOBAL).options?.[0],
    ).toHaveProperty('autocomplete', true);
  });

  it('drops autocomplete: false', () => {
    expect(
      validateCommand(withOption(stringOption({ autocomplete: false })), GLOBAL).options?.[0],
    ).not.toHaveProperty('autocomplete');
  });

  it.each([5, 6, 7, 8, 9, 11])('rejects autocomplete on type %p', (type) => {
    expect(commandErrors(withOption(stringOption({ type, autocomplete: true })))).toEqual(
      oneError(
        ['options', 0, 'autocomplete'],
        'APPLICATION_COMMAND_AUTOCOMPLETE_INVALID',
        'Autocomplete can only be enabled on STRING (3), INTEGER (4) and NUMBER (10) options',
      ),
    );
  });

  it('rejects autocomplete together with choices', () => {
    const option = stringOption({ autocomplete: true, choices: [{ name: 'A', value: 'a' }] });
    expect(commandErrors(withOption(option))).toEqual(
      oneError(
        ['options', 0, 'autocomplete'],
        'APPLICATION_COMMAND_AUTOCOMPLETE_INVALID',
        'Autocomplete cannot be enabled on an option that has choices; use one or the other',
      ),
    );
  });

  it('allows autocomplete with an empty choices list', () => {
    expect(
      validateCommand(withOption(stringOption({ autocomplete: true, choices: [] })), GLOBAL).options?.[0],
    ).toEqual({
      type: 3,
      name: 'text',
      description: 'Some text',
      autocomplete: true,
    });
  });

  it('rejects a non-boolean autocomplete', () => {
    expect(commandErrors(withOption(stringOption({ autocomplete: 1 })))).toEqual(
      oneError(['options', 0, 'autocomplete'], 'BASE_TYPE_BOOLEAN'),
    );
  });
});

describe('options: min_length / max_length', () => {
  it('keeps them on STRING options', () => {
    expect(
      validateCommand(withOption(stringOption({ min_length: 0, max_length: 6000 })), GLOBAL).options?.[0],
    ).toMatchObject({
      min_length: 0,
      max_length: 6000,
    });
  });

  it.each([
    ['min_length', -1, 'NUMBER_TYPE_MIN', 'int value should be greater than or equal to 0.'],
    ['min_length', 6001, 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 6000.'],
    ['max_length', 0, 'NUMBER_TYPE_MIN', 'int value should be greater than or equal to 1.'],
    ['max_length', 6001, 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 6000.'],
    ['max_length', 2.5, 'NUMBER_TYPE_COERCE', 'Value "2.5" is not int.'],
  ])('rejects %s %p', (field, value, code, message) => {
    expect(commandErrors(withOption(stringOption({ [field]: value })))).toEqual(
      oneError(['options', 0, field], code, message),
    );
  });

  it('rejects min_length above max_length', () => {
    expect(commandErrors(withOption(stringOption({ min_length: 10, max_length: 5 })))).toEqual(
      oneError(
        ['options', 0, 'min_length'],
        'APPLICATION_COMMAND_LENGTH_INVALID',
        'min_length (10) must be less than or equal to max_length (5)',
      ),
    );
  });

  it.each([4, 10, 5])('rejects min_length on type %p', (type) => {
    expect(commandErrors(withOption(stringOption({ type, min_length: 1 })))).toEqual(
      oneError(
        ['options', 0, 'min_length'],
        'APPLICATION_COMMAND_LENGTH_INVALID',
        'min_length can only be set on STRING (3) options',
      ),
    );
  });
});

describe('options: min_value / max_value', () => {
  it('keeps integer bounds on INTEGER and number bounds on NUMBER', () => {
    expect(
      validateCommand(withOption(stringOption({ type: 4, min_value: -5, max_value: 5 })), GLOBAL)
        .options?.[0],
    ).toMatchObject({ min_value: -5, max_value: 5 });
    expect(
      validateCommand(withOption(stringOption({ type: 10, min_value: 0.5, max_value: 2 ** 53 })), GLOBAL)
        .options?.[0],
    ).toMatchObject({ min_value: 0.5, max_value: 2 ** 53 });
  });

  it.each([
    [4, 'min_value', 1.5, 'NUMBER_TYPE_COERCE', 'Value "1.5" is not int.'],
    [4, 'max_value', '5', 'NUMBER_TYPE_COERCE', 'Value "5" is not int.'],
    [
      4,
      'max_value',
      2 ** 53,
      'NUMBER_TYPE_MAX',
      'int value should be less than or equal to 9007199254740991.',
    ],
    [
      4,
      'min_value',
      -(2 ** 53),
      'NUMBER_TYPE_MIN',
      'int value should be greater than or equal to -9007199254740991.',
    ],
    [
      10,
      'max_value',
      2 ** 53 + 2,
      'NUMBER_TYPE_MAX',
      'float value should be less than or equal to 9007199254740992.',
    ],
    [
      10,
      'min_value',
      -(2 ** 54),
      'NUMBER_TYPE_MIN',
      'float value should be greater than or equal to -9007199254740992.',
    ],
    [10, 'min_value', 'x', 'NUMBER_TYPE_COERCE', 'Value "x" is not float.'],
  ])('type %p rejects %s %p', (type, field, value, code, message) => {
    expect(commandErrors(withOption(stringOption({ type, [field]: value })))).toEqual(
      oneError(['options', 0, field], code, message),
    );
  });

  it('rejects min_value above max_value', () => {
    expect(commandErrors(withOption(stringOption({ type: 10, min_value: 3, max_value: 1.5 })))).toEqual(
      oneError(
        ['options', 0, 'min_value'],
        'APPLICATION_COMMAND_VALUE_INVALID',
        'min_value (3) must be less than or equal to max_value (1.5)',
      ),
    );
  });

  it.each([3, 5, 7])('rejects max_value on type %p', (type) => {
    expect(commandErrors(withOption(stringOption({ type, max_value: 1 })))).toEqual(
      oneError(
        ['options', 0, 'max_value'],
        'APPLICATION_COMMAND_VALUE_INVALID',
        'max_value can only be set on INTEGER (4) and NUMBER (10) options',
      ),
    );
  });
});

describe('options: channel_types', () => {
  it('keeps valid channel types on CHANNEL options', () => {
    expect(
      validateCommand(withOption(stringOption({ type: 7, channel_types: [0, 5, 15, 16] })), GLOBAL)
        .options?.[0],
    ).toMatchObject({ channel_types: [0, 5, 15, 16] });
  });

  it('rejects an unknown channel type at its index', () => {
    expect(commandErrors(withOption(stringOption({ type: 7, channel_types: [0, 6] })))).toEqual(
      oneError(
        ['options', 0, 'channel_types', 1],
        'BASE_TYPE_CHOICES',
        'Value must be one of (0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16).',
      ),
    );
  });

  it('rejects a repeated channel type', () => {
    expect(commandErrors(withOption(stringOption({ type: 7, channel_types: [0, 0] })))).toEqual(
      oneError(['options', 0, 'channel_types', 1], 'SET_TYPE_ALREADY_CONTAINS_VALUE'),
    );
  });

  it('rejects channel_types on other option types, but tolerates an empty list', () => {
    expect(commandErrors(withOption(stringOption({ channel_types: [0] })))).toEqual(
      oneError(
        ['options', 0, 'channel_types'],
        'APPLICATION_COMMAND_CHANNEL_TYPES_INVALID',
        'channel_types can only be set on CHANNEL (7) options',
      ),
    );
    expect(
      validateCommand(withOption(stringOption({ channel_types: [] })), GLOBAL).options?.[0],
    ).not.toHaveProperty('channel_types');
  });
});

describe('options: file_types', () => {
  it('keeps groups and extensions, lowercased, on ATTACHMENT options', () => {
    expect(
      validateCommand(withOption(stringOption({ type: 11, file_types: ['image', '.PDF'] })), GLOBAL)
        .options?.[0],
    ).toMatchObject({ file_types: ['image', '.pdf'] });
  });

  it('rejects an entry that is neither a group nor an extension', () => {
    expect(commandErrors(withOption(stringOption({ type: 11, file_types: ['pdf'] })))).toEqual(
      oneError(['options', 0, 'file_types', 0], 'APPLICATION_COMMAND_FILE_TYPES_INVALID'),
    );
  });

  it('rejects more than 10 entries', () => {
    const fileTypes = Array.from({ length: 11 }, (_, i) => `.e${i}`);
    expect(commandErrors(withOption(stringOption({ type: 11, file_types: fileTypes })))).toEqual(
      oneError(['options', 0, 'file_types'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.'),
    );
  });

  it('rejects file_types on other option types', () => {
    expect(commandErrors(withOption(stringOption({ file_types: ['image'] })))).toEqual(
      oneError(['options', 0, 'file_types'], 'APPLICATION_COMMAND_FILE_TYPES_INVALID'),
    );
  });
});

describe('options: normalized shape', () => {
  it('keeps only the documented keys, in a stable order', () => {
    const option = validateCommand(
      withOption({
        description: 'How many',
        max_value: 10,
        name: 'count',
        required: true,
        type: 4,
        min_value: 1,
        unknown_field: 'x',
        choices: null,
      }),
      GLOBAL,
    ).options?.[0];
    expect(option).toEqual({
      type: 4,
      name: 'count',
      description: 'How many',
      required: true,
      min_value: 1,
      max_value: 10,
    });
    expect(Object.keys(option ?? {})).toEqual([
      'type',
      'name',
      'description',
      'required',
      'min_value',
      'max_value',
    ]);
  });
});
