import { validateCommand } from '../../src/domain/validate-command';
import { GLOBAL, commandErrors, oneError, stringOption, withOption } from './helpers';

const choices = (type: number, list: unknown) => withOption(stringOption({ type, choices: list }));

describe('choices', () => {
  it.each([
    [3, 'red'],
    [3, ''],
    [4, -(2 ** 53) + 1],
    [4, 2 ** 53 - 1],
    [10, 1.25],
    [10, -(2 ** 53)],
  ])('type %p accepts value %p', (type, value) => {
    expect(validateCommand(choices(type, [{ name: 'Choice', value }]), GLOBAL).options?.[0]?.choices).toEqual(
      [{ name: 'Choice', value }],
    );
  });

  it.each([5, 6, 7, 8, 9, 11])('rejects choices on type %p', (type) => {
    expect(commandErrors(choices(type, [{ name: 'A', value: 'a' }]))).toEqual(
      oneError(
        ['options', 0, 'choices'],
        'APPLICATION_COMMAND_CHOICES_INVALID',
        'Choices can only be set on STRING (3), INTEGER (4) and NUMBER (10) options',
      ),
    );
  });

  it('tolerates and drops an empty choices list, on any type', () => {
    expect(validateCommand(choices(5, []), GLOBAL).options?.[0]).not.toHaveProperty('choices');
    expect(validateCommand(choices(3, []), GLOBAL).options?.[0]).not.toHaveProperty('choices');
  });

  it('allows 25 choices and rejects 26 on the array', () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `c${i}`, value: `v${i}` }));
    expect(validateCommand(choices(3, list(25)), GLOBAL).options?.[0]?.choices).toHaveLength(25);
    expect(commandErrors(choices(3, list(26)))).toEqual(
      oneError(['options', 0, 'choices'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.'),
    );
  });

  it('rejects a non-list and non-object choices', () => {
    expect(commandErrors(choices(3, 'a'))).toEqual(oneError(['options', 0, 'choices'], 'LIST_TYPE_CONVERT'));
    expect(commandErrors(choices(3, ['a']))).toEqual(
      oneError(
        ['options', 0, 'choices', 0],
        'MODEL_TYPE_CONVERT',
        'Only dictionaries may be used in a ModelType',
      ),
    );
  });

  it.each([
    ['', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.'],
    ['n'.repeat(101), 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.'],
    [undefined, 'BASE_TYPE_REQUIRED', 'This field is required'],
    [7, 'BASE_TYPE_STRING', 'Could not interpret "7" as string.'],
  ])('rejects choice name %p', (name, code, message) => {
    expect(commandErrors(choices(3, [{ name, value: 'a' }]))).toEqual(
      oneError(['options', 0, 'choices', 0, 'name'], code, message),
    );
  });

  it('accepts any characters and case in choice names', () => {
    expect(
      validateCommand(choices(3, [{ name: 'Dark Red (#8B0000)', value: 'dark' }]), GLOBAL).options?.[0]
        ?.choices,
    ).toEqual([{ name: 'Dark Red (#8B0000)', value: 'dark' }]);
  });

  it.each([
    [3, undefined, 'BASE_TYPE_REQUIRED', 'This field is required'],
    [3, 5, 'BASE_TYPE_STRING', 'Could not interpret "5" as string.'],
    [3, 'v'.repeat(101), 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.'],
    [4, 'five', 'NUMBER_TYPE_COERCE', 'Value "five" is not int.'],
    [4, 1.5, 'NUMBER_TYPE_COERCE', 'Value "1.5" is not int.'],
    [4, 2 ** 53, 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 9007199254740991.'],
    [4, -(2 ** 53), 'NUMBER_TYPE_MIN', 'int value should be greater than or equal to -9007199254740991.'],
    [10, '1.5', 'NUMBER_TYPE_COERCE', 'Value "1.5" is not float.'],
    [10, 2 ** 53 + 2, 'NUMBER_TYPE_MAX', 'float value should be less than or equal to 9007199254740992.'],
  ])('type %p rejects value %p', (type, value, code, message) => {
    expect(commandErrors(choices(type, [{ name: 'A', value }]))).toEqual(
      oneError(['options', 0, 'choices', 0, 'value'], code, message),
    );
  });

  it('validates choice name_localizations with the choice-name rule and drops defaults', () => {
    const list = [{ name: 'Red', name_localizations: { fr: 'Rouge Vif', de: 'Red' }, value: 'red' }];
    expect(validateCommand(choices(3, list), GLOBAL).options?.[0]?.choices).toEqual([
      { name: 'Red', name_localizations: { fr: 'Rouge Vif' }, value: 'red' },
    ]);
    expect(
      commandErrors(choices(3, [{ name: 'Red', name_localizations: { fr: '' }, value: 'red' }])),
    ).toEqual(
      oneError(
        ['options', 0, 'choices', 0, 'name_localizations', 'fr'],
        'BASE_TYPE_BAD_LENGTH',
        'Must be between 1 and 100 in length.',
      ),
    );
  });

  it('reports every bad choice in one tree', () => {
    expect(
      commandErrors(choices(4, [{ name: 'ok', value: 1 }, { value: 'x' }, { name: 'z', value: 2.5 }])),
    ).toEqual({
      options: {
        '0': {
          choices: {
            '1': {
              name: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
              value: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "x" is not int.' }] },
            },
            '2': { value: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "2.5" is not int.' }] } },
          },
        },
      },
    });
  });
});
