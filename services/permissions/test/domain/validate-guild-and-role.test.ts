import { MalformedJsonError, parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { requireBitSet } from '@acs/validation';
import { PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';
import { validateCreateGuild } from '../../src/domain/validate-create-guild';
import { validateCreateRole, validateUpdateRole } from '../../src/domain/validate-role-body';
import { discordErrorOf, formErrorsOf, oneError } from '../support/errors';

const REQUIRED = ['BASE_TYPE_REQUIRED', 'This field is required'] as const;

describe('parseJsonBody', () => {
  it('answers 50109 for a body that is not JSON', async () => {
    const error = await discordErrorOf(() => parseJsonBody('{"name": '));
    expect(error).toBeInstanceOf(MalformedJsonError);
    expect(error.httpStatus).toBe(400);
    expect(error.toBody()).toEqual({ code: 50109, message: 'The request body contains invalid JSON.' });
  });

  it('reads an empty body as {}', () => {
    expect(parseJsonBody('')).toEqual({});
  });
});

describe('readPathSnowflake and requireBitSet, as RPC fields use them', () => {
  it('names the field of a bad snowflake', () => {
    expect(formErrorsOf(() => readPathSnowflake('guild_id', 'abc'))).toEqual(
      oneError(['guild_id'], 'NUMBER_TYPE_COERCE', 'Value "abc" is not snowflake.'),
    );
    expect(readPathSnowflake('guild_id', '123')).toBe('123');
    expect(formErrorsOf(() => readPathSnowflake('guild_id', '9223372036854775808'))).toEqual(
      oneError(
        ['guild_id'],
        'NUMBER_TYPE_MAX',
        'snowflake value should be less than or equal to 9223372036854775807.',
      ),
    );
  });

  it('reads a decimal bit set and refuses anything else', () => {
    expect(requireBitSet('permissions', '32')).toBe(32n);
    expect(requireBitSet('permissions', '9007199254740993')).toBe(9007199254740993n);
    expect(formErrorsOf(() => requireBitSet('permissions', '-1'))).toEqual(
      oneError(['permissions'], 'NUMBER_TYPE_MIN', 'int value should be greater than or equal to 0.'),
    );
    expect(formErrorsOf(() => requireBitSet('permissions', '1x'))).toEqual(
      oneError(['permissions'], 'NUMBER_TYPE_COERCE', 'Value "1x" is not int.'),
    );
    expect(formErrorsOf(() => requireBitSet('permissions', ''))).toEqual(
      oneError(['permissions'], ...REQUIRED),
    );
  });
});

describe('validateCreateGuild', () => {
  it('accepts a name and an owner', () => {
    expect(validateCreateGuild({ name: 'Demo Guild', owner_id: '42' })).toEqual({
      name: 'Demo Guild',
      ownerId: '42',
    });
  });

  it('requires both fields', () => {
    expect(formErrorsOf(() => validateCreateGuild({}))).toEqual({
      name: { _errors: [{ code: REQUIRED[0], message: REQUIRED[1] }] },
      owner_id: { _errors: [{ code: REQUIRED[0], message: REQUIRED[1] }] },
    });
  });

  it('checks the name length (2-100) and the owner snowflake', () => {
    expect(formErrorsOf(() => validateCreateGuild({ name: 'x', owner_id: 'me' }))).toEqual({
      name: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 2 and 100 in length.' }] },
      owner_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "me" is not snowflake.' }] },
    });
    expect(formErrorsOf(() => validateCreateGuild({ name: 'x'.repeat(101), owner_id: '1' }))).toEqual(
      oneError(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 100 in length.'),
    );
    expect(formErrorsOf(() => validateCreateGuild({ name: 12, owner_id: '1' }))).toEqual(
      oneError(['name'], 'BASE_TYPE_STRING', 'Could not interpret "12" as string.'),
    );
  });

  it('takes a preferred locale among the supported ones (null keeps the default)', () => {
    expect(validateCreateGuild({ name: 'Demo Guild', owner_id: '42', preferred_locale: 'pt-BR' })).toEqual({
      name: 'Demo Guild',
      ownerId: '42',
      preferredLocale: 'pt-BR',
    });
    expect(validateCreateGuild({ name: 'Demo Guild', owner_id: '42', preferred_locale: null })).toEqual({
      name: 'Demo Guild',
      ownerId: '42',
    });
    const [bad] = (
      formErrorsOf(() => validateCreateGuild({ name: 'Demo', owner_id: '42', preferred_locale: 'pt' }))
        .preferred_locale as { _errors: { code: string; message: string }[] }
    )._errors;
    expect(bad?.code).toBe('BASE_TYPE_CHOICES');
    expect(bad?.message).toMatch(/^Value must be one of \('id', 'da', .*'en-US'.*\)\.$/);
    expect(
      formErrorsOf(() => validateCreateGuild({ name: 'Demo', owner_id: '42', preferred_locale: 1 })),
    ).toEqual(oneError(['preferred_locale'], 'BASE_TYPE_STRING', 'Could not interpret "1" as string.'));
  });

  it('puts a body that is not an object at the request level', () => {
    expect(formErrorsOf(() => validateCreateGuild([]))).toEqual({
      _errors: [{ code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }],
    });
  });
});

describe('validateCreateRole', () => {
  it('accepts permissions as a decimal string or an integer, and drops unknown bits', () => {
    expect(validateCreateRole({ name: 'mods', permissions: '32' })).toEqual({
      name: 'mods',
      permissions: P.MANAGE_GUILD,
    });
    expect(validateCreateRole({ name: 'mods', permissions: 8, position: 3 })).toEqual({
      name: 'mods',
      permissions: P.ADMINISTRATOR,
      position: 3,
    });
    expect(validateCreateRole({ name: 'x', permissions: String((1n << 60n) | 1n) }).permissions).toBe(1n);
  });

  it('requires name and permissions', () => {
    expect(formErrorsOf(() => validateCreateRole({ position: 1 }))).toEqual({
      name: { _errors: [{ code: REQUIRED[0], message: REQUIRED[1] }] },
      permissions: { _errors: [{ code: REQUIRED[0], message: REQUIRED[1] }] },
    });
  });

  it('names each bad field', () => {
    expect(formErrorsOf(() => validateCreateRole({ name: '', permissions: '1.5', position: 0 }))).toEqual({
      name: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }] },
      permissions: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "1.5" is not int.' }] },
      position: {
        _errors: [{ code: 'NUMBER_TYPE_MIN', message: 'int value should be greater than or equal to 1.' }],
      },
    });
    expect(formErrorsOf(() => validateCreateRole({ name: 'a', permissions: -8 }))).toEqual(
      oneError(['permissions'], 'NUMBER_TYPE_MIN', 'int value should be greater than or equal to 0.'),
    );
  });
});

describe('validateUpdateRole', () => {
  it('returns only the fields given', () => {
    expect(validateUpdateRole({ permissions: '2048' }, false)).toEqual({ permissions: P.SEND_MESSAGES });
    expect(validateUpdateRole({ name: 'new', position: 2 }, false)).toEqual({ name: 'new', position: 2 });
    expect(validateUpdateRole({}, false)).toEqual({});
  });

  it("changes @everyone's permissions but not its name or position", () => {
    expect(validateUpdateRole({ permissions: '0', name: '@everyone', position: 0 }, true)).toEqual({
      permissions: 0n,
    });
    expect(formErrorsOf(() => validateUpdateRole({ name: 'all', position: 2 }, true))).toEqual({
      name: {
        _errors: [{ code: 'ROLE_EVERYONE_IMMUTABLE', message: 'The @everyone role cannot be renamed.' }],
      },
      position: {
        _errors: [
          { code: 'ROLE_EVERYONE_IMMUTABLE', message: 'The @everyone role is always at position 0.' },
        ],
      },
    });
  });
});
