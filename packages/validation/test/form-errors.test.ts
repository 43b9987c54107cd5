import { FormErrors, MAX_REPORTED_ERRORS } from '../src';

describe('FormErrors', () => {
  it('starts empty', () => {
    const errors = new FormErrors();
    expect(errors.isEmpty()).toBe(true);
    expect(errors.count).toBe(0);
    expect(errors.toJSON()).toEqual({});
  });

  it('nests by path, turning indices into string keys', () => {
    const errors = new FormErrors();
    errors.add(
      [0, 'options', 2],
      'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
      'Required options must be placed before non-required options',
    );
    errors.add([0, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    errors.add([0, 'name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 32 in length.');
    expect(errors.count).toBe(3);
    expect(errors.isEmpty()).toBe(false);
    const tree = errors.toJSON();
    expect(tree).toEqual({
      '0': {
        options: {
          '2': {
            _errors: [
              {
                code: 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
                message: 'Required options must be placed before non-required options',
              },
            ],
          },
        },
        name: {
          _errors: [
            { code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' },
            { code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 32 in length.' },
          ],
        },
      },
    });
    expect(JSON.stringify(tree)).toContain('"0":{"options":{"2":');
  });

  it('puts an empty path at the request level', () => {
    const errors = new FormErrors();
    errors.add([], 'APPLICATION_COMMAND_TOO_LARGE', 'Command exceeds maximum size (8000)');
    expect(errors.toJSON()).toEqual({
      _errors: [{ code: 'APPLICATION_COMMAND_TOO_LARGE', message: 'Command exceeds maximum size (8000)' }],
    });
  });

  it('keeps request-level and nested errors side by side', () => {
    const errors = new FormErrors();
    errors.add(['a'], 'X', 'x');
    errors.add([], 'Y', 'y');
    expect(errors.toJSON()).toEqual({
      a: { _errors: [{ code: 'X', message: 'x' }] },
      _errors: [{ code: 'Y', message: 'y' }],
    });
  });

  it('treats keys from client input, like __proto__, as plain keys', () => {
    const errors = new FormErrors();
    errors.add(['name_localizations', '__proto__'], 'BASE_TYPE_CHOICES', 'bad');
    const tree = errors.toJSON();
    expect(JSON.parse(JSON.stringify(tree))).toEqual(
      JSON.parse(
        '{"name_localizations":{"__proto__":{"_errors":[{"code":"BASE_TYPE_CHOICES","message":"bad"}]}}}',
      ),
    );
    const node = tree.name_localizations as Record<string, unknown>;
    expect(Object.getPrototypeOf(node)).toBe(Object.prototype);
    expect(Object.keys(node)).toEqual(['__proto__']);
  });

  it('returns a fresh tree each time', () => {
    const errors = new FormErrors();
    errors.add(['a'], 'X', 'x');
    const first = errors.toJSON();
    (first.a as { _errors: unknown[] })._errors.push('changed');
    expect(errors.toJSON()).toEqual({ a: { _errors: [{ code: 'X', message: 'x' }] } });
  });

  it('never lets a field named _errors replace or merge with a leaf list', () => {
    const errors = new FormErrors();
    errors.add(['name_localizations', '_errors'], 'BASE_TYPE_CHOICES', 'bad locale');
    errors.add(['name_localizations', 'xx'], 'BASE_TYPE_CHOICES', 'bad locale');
    errors.add(['options', 0, '_errors', 'deeper'], 'X', 'x');
    const tree = JSON.parse(JSON.stringify(errors.toJSON())) as { name_localizations: { _errors: unknown } };
    expect(tree).toEqual({
      name_localizations: {
        _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'bad locale' }],
        xx: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'bad locale' }] },
      },
      options: { '0': { _errors: [{ code: 'X', message: 'x' }] } },
    });
    expect(Array.isArray(tree.name_localizations._errors)).toBe(true);
  });

  it('counts every error but keeps at most MAX_REPORTED_ERRORS for the answer', () => {
    const errors = new FormErrors();
    for (let i = 0; i < MAX_REPORTED_ERRORS + 500; i++) errors.add(['roles', i], 'X', 'x');
    expect(errors.count).toBe(MAX_REPORTED_ERRORS + 500);
    expect(Object.keys(errors.toJSON().roles as object)).toHaveLength(MAX_REPORTED_ERRORS);
  });
});
