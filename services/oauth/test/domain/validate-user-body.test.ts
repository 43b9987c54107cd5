import { validateNewUser } from '../../src/domain/validate-user-body';
import { formErrorsOf, oneError } from '../support/form-errors-of';

const errorsOf = (body: unknown) => formErrorsOf(() => validateNewUser(body as Record<string, unknown>));

describe('validateNewUser', () => {
  it('applies the defaults', () => {
    expect(validateNewUser({ username: 'alice' })).toEqual({
      username: 'alice',
      globalName: null,
      locale: 'en-US',
      email: null,
      premiumType: 0,
    });
  });

  it('reads every field', () => {
    expect(
      validateNewUser({
        username: 'bob',
        global_name: 'Bob',
        locale: 'pt-BR',
        email: 'bob@example.com',
        premium_type: 2,
      }),
    ).toEqual({
      username: 'bob',
      globalName: 'Bob',
      locale: 'pt-BR',
      email: 'bob@example.com',
      premiumType: 2,
    });
  });

  it('requires a username of 2 to 32 characters', () => {
    expect(errorsOf({})).toEqual(oneError(['username'], 'BASE_TYPE_REQUIRED', 'This field is required'));
    expect(errorsOf({ username: 'a' })).toEqual(
      oneError(['username'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 32 in length.'),
    );
    expect(errorsOf({ username: 'a'.repeat(33) })).toEqual(
      oneError(['username'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 32 in length.'),
    );
  });

  it('accepts only the 34 supported locales, case-sensitively', () => {
    const tree = errorsOf({ username: 'carol', locale: 'en-us' });
    const message = (tree.locale as { _errors: { message: string }[] })._errors[0]?.message ?? '';
    expect(message.startsWith("Value must be one of ('id', 'da', 'de', 'en-GB', 'en-US'")).toBe(true);
    expect(message.match(/'/g)).toHaveLength(68);
    expect(validateNewUser({ username: 'carol', locale: 'he' }).locale).toBe('he');
  });

  it('checks email and premium_type', () => {
    expect(errorsOf({ username: 'dave', email: 'not-an-email', premium_type: 4, global_name: '' })).toEqual({
      global_name: {
        _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 32 in length.' }],
      },
      email: { _errors: [{ code: 'EMAIL_TYPE_INVALID_EMAIL', message: 'Not a well formed email address.' }] },
      premium_type: {
        _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (0, 1, 2, 3).' }],
      },
    });
  });
});
