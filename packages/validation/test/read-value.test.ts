import { FormErrors, readBoolean, readInteger, readModel, readString, getField } from '../src';

describe('JSON type readers', () => {
  it('record the real API’s codes and messages for wrong types', () => {
    const errors = new FormErrors();
    expect(readString(5, errors, ['name'])).toBeUndefined();
    expect(readInteger('5', errors, ['type'])).toBeUndefined();
    expect(readBoolean('yes', errors, ['nsfw'])).toBeUndefined();
    expect(readModel([], errors, ['options', 0])).toBeUndefined();
    expect(errors.toJSON()).toEqual({
      name: { _errors: [{ code: 'BASE_TYPE_STRING', message: 'Could not interpret "5" as string.' }] },
      type: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "5" is not int.' }] },
      nsfw: { _errors: [{ code: 'BASE_TYPE_BOOLEAN', message: 'Must be either true or false.' }] },
      options: {
        '0': {
          _errors: [{ code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }],
        },
      },
    });
  });

  it('never reads inherited fields', () => {
    expect(getField({}, 'constructor')).toBeUndefined();
    expect(getField(JSON.parse('{"__proto__": 1}') as Record<string, unknown>, '__proto__')).toBe(1);
  });
});
