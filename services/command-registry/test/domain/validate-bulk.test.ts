import { MaxCommandsError } from '../../src/domain/command-errors';
import { validateBulk } from '../../src/domain/validate-bulk';
import { GLOBAL, GLOBAL_EMBEDDED, GUILD, formErrorsOf, oneError, slash } from './helpers';

const bulkErrors = (input: unknown, ctx = GLOBAL) => formErrorsOf(() => validateBulk(input, ctx));
const named = (name: string, extra: Record<string, unknown> = {}) => slash({ name, ...extra });

describe('validateBulk', () => {
  it.each([null, undefined, []])('treats %p as an empty overwrite', (input) => {
    expect(validateBulk(input, GLOBAL)).toEqual([]);
  });

  it('returns the normalized commands in order, with the client id kept apart', () => {
    const result = validateBulk(
      [named('a', { id: '123' }), named('b'), { type: 2, name: 'B', id: 456 }],
      GLOBAL,
    );
    expect(result.map((r) => [r.id, r.command.name, r.command.type])).toEqual([
      ['123', 'a', 1],
      [null, 'b', 1],
      ['456', 'B', 2],
    ]);
    expect(result[0]?.command).not.toHaveProperty('id');
  });

  it('rejects a body that is not an array at the request level', () => {
    expect(bulkErrors({ name: 'a' })).toEqual(
      oneError([], 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType'),
    );
  });

  it('rejects more than 130 items at the request level', () => {
    const items = Array.from({ length: 131 }, (_, i) => named(`c${i}`));
    expect(bulkErrors(items)).toEqual(
      oneError([], 'BASE_TYPE_MAX_LENGTH', 'Must be 130 or fewer in length.'),
    );
  });

  it('reports the errors of every item under its index', () => {
    expect(
      bulkErrors([
        named('ok'),
        { name: 'Bad', description: 'd'.repeat(101) },
        'x',
        named('fine', { nsfw: 2 }),
      ]),
    ).toEqual({
      '1': {
        name: { _errors: [{ code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' }] },
        description: {
          _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }],
        },
      },
      '2': {
        _errors: [{ code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }],
      },
      '3': { nsfw: { _errors: [{ code: 'BASE_TYPE_BOOLEAN', message: 'Must be either true or false.' }] } },
    });
  });

  it('reports a duplicate name of the same type on the later item', () => {
    expect(bulkErrors([named('a'), named('b'), named('a')])).toEqual(
      oneError([2], 'APPLICATION_COMMANDS_DUPLICATE_NAME', 'Application command names must be unique'),
    );
  });

  it('allows the same name for different types', () => {
    expect(
      validateBulk([named('info'), { type: 2, name: 'info' }, { type: 3, name: 'info' }], GLOBAL),
    ).toHaveLength(3);
  });

  it('puts APPLICATION_COMMAND_TOO_LARGE under the item index', () => {
    const huge = named('huge', {
      options: Array.from({ length: 25 }, (_, i) => ({
        type: 3,
        name: `o${i}`,
        description: 'd'.repeat(100),
        choices: Array.from({ length: 25 }, (__, j) => ({
          name: `${j}`.padEnd(100, 'n'),
          value: `${j}`.padEnd(100, 'v'),
        })),
      })),
    });
    expect(bulkErrors([named('a'), huge])).toEqual(
      oneError([1], 'APPLICATION_COMMAND_TOO_LARGE', 'Command exceeds maximum size (8000)'),
    );
  });

  it.each([
    ['abc', 'abc'],
    [-1, '-1'],
    [true, 'true'],
  ])('rejects id %p as not a snowflake', (id, shown) => {
    expect(bulkErrors([named('a', { id })])).toEqual(
      oneError([0, 'id'], 'NUMBER_TYPE_COERCE', `Value "${shown}" is not snowflake.`),
    );
  });

  it('rejects an entry point in a guild bulk under its index', () => {
    expect(bulkErrors([{ type: 4, name: 'Launch' }], GUILD)).toEqual(
      oneError([0, 'type'], 'APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_INVALID'),
    );
  });

  it.each([
    [1, 100, (i: number) => named(`c${i}`)],
    [2, 15, (i: number) => ({ type: 2, name: `User ${i}` })],
    [3, 15, (i: number) => ({ type: 3, name: `Message ${i}` })],
  ])('type %p allows %p commands and rejects one more with MaxCommandsError', (_, limit, make) => {
    const items = Array.from({ length: limit }, (__, i) => make(i));
    expect(validateBulk(items, GLOBAL)).toHaveLength(limit);
    const tooMany = [...items, make(limit)];
    let thrown: unknown;
    try {
      validateBulk(tooMany, GLOBAL);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MaxCommandsError);
    expect((thrown as MaxCommandsError).toBody()).toEqual({
      code: 30032,
      message: `Maximum number of application commands reached (${limit})`,
    });
    expect((thrown as MaxCommandsError).httpStatus).toBe(400);
  });

  it('allows one entry point and rejects two with MaxCommandsError (1)', () => {
    expect(validateBulk([{ type: 4, name: 'Launch' }], GLOBAL_EMBEDDED)).toHaveLength(1);
    expect(() =>
      validateBulk(
        [
          { type: 4, name: 'Launch' },
          { type: 4, name: 'Play' },
        ],
        GLOBAL_EMBEDDED,
      ),
    ).toThrow('Maximum number of application commands reached (1)');
  });

  it('counts types separately: 100 CHAT_INPUT + 15 USER + 15 MESSAGE fit in 130', () => {
    const items = [
      ...Array.from({ length: 100 }, (_, i) => named(`c${i}`)),
      ...Array.from({ length: 15 }, (_, i) => ({ type: 2, name: `U${i}` })),
      ...Array.from({ length: 15 }, (_, i) => ({ type: 3, name: `M${i}` })),
    ];
    expect(validateBulk(items, GLOBAL)).toHaveLength(130);
  });
});
