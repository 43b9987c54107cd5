import {
  DiscordError,
  InvalidFormBodyError,
  parseJsonBody,
  parseJsonObject,
  readPathSnowflake,
} from '../src';

describe('parseJsonBody', () => {
  it('parses JSON, reads an empty body as {}, and answers 50109 otherwise', () => {
    expect(parseJsonBody('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonBody('[1]')).toEqual([1]);
    expect(parseJsonBody('  ')).toEqual({});
    expect(() => parseJsonBody('{"a":')).toThrow(expect.objectContaining({ httpStatus: 400, code: 50109 }));
  });
});

describe('parseJsonObject', () => {
  it('accepts objects and the empty body', () => {
    expect(parseJsonObject('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonObject('')).toEqual({});
  });

  it.each(['[]', '1', 'null', '"x"'])('answers a request-level MODEL_TYPE_CONVERT for %s', (text) => {
    let caught: unknown;
    try {
      parseJsonObject(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidFormBodyError);
    expect((caught as DiscordError).toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        _errors: [{ code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }],
      },
    });
  });
});

describe('readPathSnowflake', () => {
  it('returns a valid id unchanged', () => {
    expect(readPathSnowflake('guild_id', '1573845540855349248')).toBe('1573845540855349248');
  });

  it('answers NUMBER_TYPE_COERCE at the field, quoting at most 100 characters of the value', () => {
    const long = 'x'.repeat(5000);
    let caught: unknown;
    try {
      readPathSnowflake('application_id', long);
    } catch (error) {
      caught = error;
    }
    const body = (caught as DiscordError).toBody();
    expect(body.code).toBe(50035);
    const leaf = (body.errors?.application_id as { _errors: Array<{ code: string; message: string }> })
      ._errors[0];
    expect(leaf?.code).toBe('NUMBER_TYPE_COERCE');
    expect(leaf?.message).toBe(`Value "${'x'.repeat(97)}..." is not snowflake.`);
  });

  it('answers an id above 2^63 - 1, which no bigint column holds, with NUMBER_TYPE_MAX as Discord does', () => {
    for (const id of ['9223372036854775808', '18446744073709551615', '9'.repeat(1_000_000)]) {
      expect(() => readPathSnowflake('guild_id', id)).toThrow(
        expect.objectContaining({
          httpStatus: 400,
          code: 50035,
          errors: {
            guild_id: {
              _errors: [
                {
                  code: 'NUMBER_TYPE_MAX',
                  message: 'snowflake value should be less than or equal to 9223372036854775807.',
                },
              ],
            },
          },
        }),
      );
    }
    expect(readPathSnowflake('guild_id', '9223372036854775807')).toBe('9223372036854775807');
  });
});
