import { readCommandSpec, validateOptions, type OptionLookups } from '../../../src/domain/invocation';
import type { SentOption } from '../../../src/domain/invocation';
import {
  COMMAND,
  errorsIn,
  leavesAt,
  OTHER_USER,
  ROLE,
  TEXT_CHANNEL,
  treeOf,
  user,
  VERSION,
  VOICE_CHANNEL,
} from './fixtures';

/** The option specs of a command with `options`. */
const specsOf = (options: unknown[]) =>
  readCommandSpec({
    command: { id: COMMAND, version: VERSION, type: 1, name: 'c', options },
    guildId: null,
    namedVersion: VERSION,
  }).options;

/** Sent options with defaults filled as readInvocationBody fills them. */
const sent = (options: Partial<SentOption>[]): SentOption[] =>
  options.map((o) => ({
    name: o.name ?? '',
    type: o.type ?? null,
    value: o.value,
    options: o.options ?? null,
    focused: o.focused ?? false,
  }));

const lookups: OptionLookups = {
  users: { [OTHER_USER]: user(OTHER_USER) },
  members: { [OTHER_USER]: { roles: [], nick: null, permissions: '0' } },
  roles: { [ROLE]: { id: ROLE, name: 'mods' } },
  channels: {
    [TEXT_CHANNEL]: { id: TEXT_CHANNEL, type: 0, name: 'text' },
    [VOICE_CHANNEL]: { id: VOICE_CHANNEL, type: 2, name: 'voice' },
  },
};

const echo = specsOf([
  { type: 3, name: 'text', description: 'd', required: true, min_length: 2, max_length: 10 },
  { type: 4, name: 'times', description: 'd', min_value: 1, max_value: 3 },
  { type: 10, name: 'ratio', description: 'd', min_value: 0.5 },
  { type: 5, name: 'loud', description: 'd' },
  {
    type: 3,
    name: 'mood',
    description: 'd',
    choices: [
      { name: 'Happy', value: 'happy' },
      { name: 'Sad', value: 'sad' },
    ],
  },
  { type: 4, name: 'level', description: 'd', choices: [{ name: 'One', value: 1 }] },
  { type: 6, name: 'who', description: 'd' },
  { type: 7, name: 'where', description: 'd', channel_types: [0] },
  { type: 8, name: 'role', description: 'd' },
  { type: 9, name: 'mention', description: 'd' },
  { type: 11, name: 'file', description: 'd' },
  { type: 3, name: 'city', description: 'd', autocomplete: true },
]);

const invoke = (options: Partial<SentOption>[], type = 2, specs = echo) =>
  validateOptions(type, sent(options), specs, lookups);
const refused = (options: Partial<SentOption>[], type = 2, specs = echo) =>
  treeOf(() => invoke(options, type, specs));
const OPTION_INVALID = 'INTERACTION_APPLICATION_COMMAND_OPTION_INVALID';

describe('validateOptions: values', () => {
  it('passes valid values with the default names and the types of the command', () => {
    const result = invoke([
      { name: 'text', value: 'hello' },
      { name: 'times', type: 4, value: 2 },
      { name: 'ratio', value: 0.75 },
      { name: 'loud', value: false },
      { name: 'mood', value: 'sad' },
      { name: 'level', value: 1 },
      { name: 'who', value: OTHER_USER },
      { name: 'where', value: TEXT_CHANNEL },
      { name: 'role', value: ROLE },
      { name: 'mention', value: ROLE },
    ]);
    expect(result.options).toEqual([
      { name: 'text', type: 3, value: 'hello' },
      { name: 'times', type: 4, value: 2 },
      { name: 'ratio', type: 10, value: 0.75 },
      { name: 'loud', type: 5, value: false },
      { name: 'mood', type: 3, value: 'sad' },
      { name: 'level', type: 4, value: 1 },
      { name: 'who', type: 6, value: OTHER_USER },
      { name: 'where', type: 7, value: TEXT_CHANNEL },
      { name: 'role', type: 8, value: ROLE },
      { name: 'mention', type: 9, value: ROLE },
    ]);
    expect(result.referenced).toEqual({ users: [OTHER_USER], roles: [ROLE], channels: [TEXT_CHANNEL] });
  });

  it('refuses a value of the wrong type at its value path', () => {
    const cases: [Partial<SentOption>, string][] = [
      [{ name: 'mood', value: 5 }, 'Value must be a string'],
      [{ name: 'times', value: 1.5 }, 'Value must be an integer'],
      [{ name: 'times', value: '2' }, 'Value must be an integer'],
      [{ name: 'times', value: 2 ** 54 }, 'Value must be an integer'],
      [{ name: 'ratio', value: 'x' }, 'Value must be a number'],
      [{ name: 'loud', value: 'true' }, 'Value must be a boolean'],
      [{ name: 'who', value: 'someone' }, 'Value must be a snowflake'],
    ];
    for (const [option, message] of cases) {
      const tree = refused([{ name: 'text', value: 'ok' }, option]);
      expect(leavesAt(tree, ['data', 'options', 1, 'value'])).toEqual([{ code: OPTION_INVALID, message }]);
    }
  });

  it('enforces min/max value and length, and choices', () => {
    const at1 = (option: Partial<SentOption>) =>
      leavesAt(refused([{ name: 'text', value: 'ok' }, option]), ['data', 'options', 1, 'value'])[0]?.message;
    expect(at1({ name: 'times', value: 0 })).toBe('Value must be greater than or equal to 1');
    expect(at1({ name: 'times', value: 9 })).toBe('Value must be less than or equal to 3');
    expect(at1({ name: 'ratio', value: 0.25 })).toBe('Value must be greater than or equal to 0.5');
    expect(at1({ name: 'mood', value: 'angry' })).toBe("Value is not one of the option's choices");
    expect(at1({ name: 'level', value: 2 })).toBe("Value is not one of the option's choices");
    expect(leavesAt(refused([{ name: 'text', value: 'x' }]), ['data', 'options', 0, 'value'])).toEqual([
      { code: OPTION_INVALID, message: 'Value must be between 2 and 10 characters long' },
    ]);
    expect(
      leavesAt(refused([{ name: 'text', value: 'x'.repeat(11) }]), ['data', 'options', 0, 'value'])[0]?.code,
    ).toBe(OPTION_INVALID);
    // Length counts code points: ten emoji are ten characters.
    expect(invoke([{ name: 'text', value: '😀'.repeat(10) }]).options).toHaveLength(1);
  });

  it('needs ids that exist here, of the allowed channel types', () => {
    const at1 = (option: Partial<SentOption>) =>
      leavesAt(refused([{ name: 'text', value: 'ok' }, option]), ['data', 'options', 1, 'value'])[0]?.message;
    expect(at1({ name: 'who', value: '1600000000000000000' })).toBe('Unknown user');
    expect(at1({ name: 'role', value: OTHER_USER })).toBe('Unknown role');
    expect(at1({ name: 'mention', value: TEXT_CHANNEL })).toBe('Unknown user or role');
    expect(at1({ name: 'where', value: '1600000000000000000' })).toBe('Unknown channel');
    expect(at1({ name: 'where', value: VOICE_CHANNEL })).toBe(
      'Channel type 2 is not allowed for this option',
    );
    expect(at1({ name: 'file', value: '1600000000000000000' })).toBe('Unknown attachment');
  });

  it('refuses unknown, repeated and mistyped options, and a value missing', () => {
    expect(
      errorsIn(
        refused([
          { name: 'text', value: 'ok' },
          { name: 'nope', value: 1 },
        ]),
      ),
    ).toEqual([{ path: 'data.options.1.name', code: OPTION_INVALID }]);
    expect(
      errorsIn(
        refused([
          { name: 'text', value: 'ok' },
          { name: 'text', value: 'ok' },
        ]),
      ),
    ).toEqual([{ path: 'data.options.1.name', code: OPTION_INVALID }]);
    expect(errorsIn(refused([{ name: 'text', type: 4, value: 'ok' }]))).toEqual([
      { path: 'data.options.0.type', code: OPTION_INVALID },
    ]);
    expect(errorsIn(refused([{ name: 'text' }]))).toEqual([
      { path: 'data.options.0.value', code: OPTION_INVALID },
    ]);
    expect(errorsIn(refused([{ name: 'text', value: 'ok', options: [] }]))).toEqual([
      { path: 'data.options.0.options', code: OPTION_INVALID },
    ]);
  });

  it('quotes an unknown option or subcommand name shortly, however long it is', () => {
    // A name of a body's size (300,000 characters here) must not come back in the answer.
    const long = 'é'.repeat(300_000);
    const quoted = `Unknown option "${'é'.repeat(97)}..."`;
    expect(
      leavesAt(refused([{ name: 'text', value: 'ok' }, { name: long }]), ['data', 'options', 1, 'name']),
    ).toEqual([{ code: OPTION_INVALID, message: quoted }]);
    const subcommands = specsOf([{ type: 1, name: 'help', description: 'd' }]);
    expect(leavesAt(refused([{ name: long }], 2, subcommands), ['data', 'options', 0, 'name'])).toEqual([
      { code: OPTION_INVALID, message: `Unknown subcommand "${'é'.repeat(97)}..."` },
    ]);
    expect(leavesAt(refused([{ name: 'nope', value: 1 }]), ['data', 'options', 0, 'name'])[0]?.message).toBe(
      'Unknown option "nope"',
    );
  });

  it('requires required options: OPTION_MISSING at data.options', () => {
    expect(treeOf(() => validateOptions(2, null, echo, lookups))).toEqual({
      data: {
        options: {
          _errors: [
            {
              code: 'INTERACTION_APPLICATION_COMMAND_OPTION_MISSING',
              message: 'Missing interaction application command option',
            },
          ],
        },
      },
    });
  });

  it('reports every error at once', () => {
    expect(
      errorsIn(
        refused([
          { name: 'times', value: 0 },
          { name: 'mood', value: 'x' },
        ]),
      ),
    ).toEqual([
      { path: 'data.options.0.value', code: OPTION_INVALID },
      { path: 'data.options.1.value', code: OPTION_INVALID },
      { path: 'data.options', code: 'INTERACTION_APPLICATION_COMMAND_OPTION_MISSING' },
    ]);
  });

  it('leaves options out for a command without any', () => {
    expect(validateOptions(2, null, [], lookups).options).toBeUndefined();
    expect(errorsIn(treeOf(() => validateOptions(2, sent([{ name: 'x', value: 1 }]), [], lookups)))).toEqual([
      { path: 'data.options.0.name', code: OPTION_INVALID },
    ]);
  });
});

describe('validateOptions: subcommands', () => {
  const tag = specsOf([
    {
      type: 2,
      name: 'tag',
      description: 'd',
      options: [
        {
          type: 1,
          name: 'get',
          description: 'd',
          options: [{ type: 3, name: 'name', description: 'd', required: true }],
        },
        { type: 1, name: 'list', description: 'd' },
      ],
    },
    { type: 1, name: 'help', description: 'd' },
  ]);

  it('walks group → subcommand → values', () => {
    const result = validateOptions(
      2,
      sent([
        {
          name: 'tag',
          type: 2,
          options: sent([{ name: 'get', options: sent([{ name: 'name', value: 'faq' }]) }]),
        },
      ]),
      tag,
      lookups,
    );
    expect(result.options).toEqual([
      {
        name: 'tag',
        type: 2,
        options: [{ name: 'get', type: 1, options: [{ name: 'name', type: 3, value: 'faq' }] }],
      },
    ]);
    expect(validateOptions(2, sent([{ name: 'help' }]), tag, lookups).options).toEqual([
      { name: 'help', type: 1, options: [] },
    ]);
  });

  it('needs exactly one known subcommand, and its required options', () => {
    const errors = (options: Partial<SentOption>[]) =>
      errorsIn(treeOf(() => validateOptions(2, sent(options), tag, lookups)));
    expect(errors([])).toEqual([
      { path: 'data.options', code: 'INTERACTION_APPLICATION_COMMAND_OPTION_MISSING' },
    ]);
    expect(errors([{ name: 'nope' }])).toEqual([{ path: 'data.options.0.name', code: OPTION_INVALID }]);
    expect(errors([{ name: 'help' }, { name: 'tag' }])).toEqual([
      { path: 'data.options.1.name', code: OPTION_INVALID },
    ]);
    expect(errors([{ name: 'help', value: 1 }])).toEqual([
      { path: 'data.options.0.value', code: OPTION_INVALID },
    ]);
    expect(errors([{ name: 'tag', options: sent([{ name: 'get' }]) }])).toEqual([
      { path: 'data.options.0.options.0.options', code: 'INTERACTION_APPLICATION_COMMAND_OPTION_MISSING' },
    ]);
    expect(
      errors([
        { name: 'tag', options: sent([{ name: 'get', options: sent([{ name: 'name', value: 3 }]) }]) },
      ]),
    ).toEqual([{ path: 'data.options.0.options.0.options.0.value', code: OPTION_INVALID }]);
    // A value option where a subcommand is expected.
    expect(errors([{ name: 'tag', options: sent([{ name: 'name', value: 'x' }]) }])).toEqual([
      { path: 'data.options.0.options.0.name', code: OPTION_INVALID },
    ]);
  });
});

describe('validateOptions: autocomplete', () => {
  it('takes one focused option whose value is a partial string, unchecked, with required options missing', () => {
    const result = invoke(
      [
        { name: 'city', value: 'Pa', focused: true },
        { name: 'times', value: 2 },
      ],
      4,
    );
    expect(result.options).toEqual([
      { name: 'city', type: 3, value: 'Pa', focused: true },
      { name: 'times', type: 4, value: 2 },
    ]);
  });

  it('still checks the options that are not focused', () => {
    expect(
      errorsIn(
        refused(
          [
            { name: 'city', value: 'Pa', focused: true },
            { name: 'times', value: 7 },
          ],
          4,
        ),
      ),
    ).toEqual([{ path: 'data.options.1.value', code: OPTION_INVALID }]);
  });

  it('needs exactly one focused option', () => {
    expect(leavesAt(refused([{ name: 'city', value: 'Pa' }], 4), ['data', 'options'])).toEqual([
      { code: OPTION_INVALID, message: 'Exactly one option must be focused' },
    ]);
    const twice = specsOf([
      { type: 3, name: 'a', description: 'd', autocomplete: true },
      { type: 3, name: 'b', description: 'd', autocomplete: true },
    ]);
    expect(
      errorsIn(
        refused(
          [
            { name: 'a', value: '', focused: true },
            { name: 'b', value: '', focused: true },
          ],
          4,
          twice,
        ),
      ),
    ).toEqual([{ path: 'data.options', code: OPTION_INVALID }]);
  });

  it('focuses only options with autocomplete, with a string value, and only in an autocomplete', () => {
    expect(errorsIn(refused([{ name: 'text', value: 'P', focused: true }], 4))).toEqual([
      { path: 'data.options.0.focused', code: OPTION_INVALID },
    ]);
    expect(errorsIn(refused([{ name: 'city', value: 5, focused: true }], 4))).toEqual([
      { path: 'data.options.0.value', code: OPTION_INVALID },
    ]);
    expect(
      errorsIn(
        refused(
          [
            { name: 'text', value: 'ok' },
            { name: 'city', value: 'P', focused: true },
          ],
          2,
        ),
      ),
    ).toEqual([{ path: 'data.options.1.focused', code: OPTION_INVALID }]);
  });

  it('takes the focused INTEGER option as the string typed so far', () => {
    const specs = specsOf([{ type: 4, name: 'n', description: 'd', autocomplete: true, min_value: 10 }]);
    expect(invoke([{ name: 'n', value: '1', focused: true }], 4, specs).options).toEqual([
      { name: 'n', type: 4, value: '1', focused: true },
    ]);
  });
});
