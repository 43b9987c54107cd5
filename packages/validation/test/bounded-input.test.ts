import { MAX_SNOWFLAKE } from '@acs/snowflake';
import { longestBigIntText } from '@acs/testing';
import {
  FormErrors,
  MAX_BIT_SET,
  checkLength,
  codePointLength,
  collectTextErrors,
  parseBitSet,
  readBitSet,
  readSnowflake,
  readString,
  requireBitSet,
} from '../src';

const MEGABYTE_OF_NINES = '9'.repeat(1_000_000);

describe('bit sets', () => {
  it('reads decimal strings and integers within the maximum', () => {
    expect(parseBitSet('8', MAX_BIT_SET)).toBe(8n);
    expect(parseBitSet('0008', MAX_BIT_SET)).toBe(8n);
    expect(parseBitSet('-0', MAX_BIT_SET)).toBe(0n);
    expect(parseBitSet(2 ** 40, MAX_BIT_SET)).toBe(2n ** 40n);
    expect(parseBitSet(MAX_BIT_SET.toString(), MAX_BIT_SET)).toBe(MAX_BIT_SET);
  });

  it('names what is wrong: not an integer, negative, or above the maximum', () => {
    expect(parseBitSet('1.5', MAX_BIT_SET)).toBe('not_int');
    expect(parseBitSet(1.5, MAX_BIT_SET)).toBe('not_int');
    expect(parseBitSet('', MAX_BIT_SET)).toBe('not_int');
    expect(parseBitSet('-', MAX_BIT_SET)).toBe('not_int');
    expect(parseBitSet(true, MAX_BIT_SET)).toBe('not_int');
    expect(parseBitSet('-8', MAX_BIT_SET)).toBe('negative');
    expect(parseBitSet(-1, MAX_BIT_SET)).toBe('negative');
    expect(parseBitSet((MAX_BIT_SET + 1n).toString(), MAX_BIT_SET)).toBe('too_large');
    expect(parseBitSet(2 ** 64, MAX_BIT_SET)).toBe('too_large');
    expect(parseBitSet('16', 15n)).toBe('too_large');
  });

  it('refuses a megabyte of digits without BigInt work', async () => {
    const inputs = [
      MEGABYTE_OF_NINES,
      `-${MEGABYTE_OF_NINES}`,
      `${'0'.repeat(1_000_000)}1`,
      `${MEGABYTE_OF_NINES}x`,
    ];
    // The cost the readers must not pay is converting the digits to a BigInt (100-200 ms);
    // they convert at most the 20 significant digits of a 64-bit set.
    const longest = await longestBigIntText(() => {
      expect(parseBitSet(inputs[0], MAX_BIT_SET)).toBe('too_large');
      expect(parseBitSet(inputs[1], MAX_BIT_SET)).toBe('negative');
      expect(parseBitSet(inputs[2], MAX_BIT_SET)).toBe(1n);
      expect(parseBitSet(inputs[3], MAX_BIT_SET)).toBe('not_int');
    });
    expect(longest).toBeLessThanOrEqual(20);
  });

  it("records Discord's int errors at the path", () => {
    const errors = new FormErrors();
    expect(readBitSet('x', 15n, errors, ['a'])).toBeUndefined();
    expect(readBitSet('-1', 15n, errors, ['b'])).toBeUndefined();
    expect(readBitSet(MEGABYTE_OF_NINES, 15n, errors, ['c'])).toBeUndefined();
    expect(readBitSet('15', 15n, errors, ['d'])).toBe(15n);
    expect(errors.toJSON()).toEqual({
      a: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "x" is not int.' }] },
      b: {
        _errors: [{ code: 'NUMBER_TYPE_MIN', message: 'int value should be greater than or equal to 0.' }],
      },
      c: { _errors: [{ code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 15.' }] },
    });
  });

  it('requires a bit set in an RPC field', () => {
    expect(requireBitSet('permissions', '8')).toBe(8n);
    expect(() => requireBitSet('permissions', '')).toThrow(
      expect.objectContaining({
        code: 50035,
        errors: {
          permissions: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
        },
      }),
    );
    expect(() => requireBitSet('permissions', MEGABYTE_OF_NINES)).toThrow(
      expect.objectContaining({
        errors: { permissions: { _errors: [expect.objectContaining({ code: 'NUMBER_TYPE_MAX' })] } },
      }),
    );
  });
});

describe('snowflakes', () => {
  const tooLarge = {
    code: 'NUMBER_TYPE_MAX',
    message: 'snowflake value should be less than or equal to 9223372036854775807.',
  };

  it('answers ids above 2^63 - 1 as Discord does, with NUMBER_TYPE_MAX', () => {
    const errors = new FormErrors();
    expect(readSnowflake(MAX_SNOWFLAKE, errors, ['a'])).toBe(MAX_SNOWFLAKE);
    expect(readSnowflake('9223372036854775808', errors, ['b'])).toBeUndefined();
    expect(readSnowflake('18446744073709551615', errors, ['c'])).toBeUndefined();
    expect(readSnowflake(MEGABYTE_OF_NINES, errors, ['d'])).toBeUndefined();
    expect(readSnowflake('12a', errors, ['e'])).toBeUndefined();
    expect(errors.toJSON()).toEqual({
      b: { _errors: [tooLarge] },
      c: { _errors: [tooLarge] },
      d: { _errors: [tooLarge] },
      e: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "12a" is not snowflake.' }] },
    });
  });
});

describe('text', () => {
  it('refuses U+0000 in a string, which PostgreSQL cannot store', () => {
    const errors = new FormErrors();
    expect(readString('a\u0000b', errors, ['options', 0, 'description'])).toBeUndefined();
    expect(readString('ab', errors, ['name'])).toBe('ab');
    expect(errors.toJSON()).toEqual({
      options: {
        '0': {
          description: {
            _errors: [
              {
                code: 'STRING_TYPE_NUL_CHARACTER',
                message: 'Text cannot contain the NUL character (U+0000).',
              },
            ],
          },
        },
      },
    });
  });

  it('finds U+0000 in every string and key of a parsed body, at its path', () => {
    const errors = new FormErrors();
    collectTextErrors(
      JSON.parse(
        '{"name":"ok","options":[{"description":"a\\u0000"},{"choices":[{"name":"\\u0000"}]}],"name_localizations":{"f\\u0000r":"x"},"n":[1,true,null]}',
      ),
      errors,
    );
    const nul = {
      _errors: [
        { code: 'STRING_TYPE_NUL_CHARACTER', message: 'Text cannot contain the NUL character (U+0000).' },
      ],
    };
    expect(errors.toJSON()).toEqual({
      options: { '0': { description: nul }, '1': { choices: { '0': { name: nul } } } },
      name_localizations: { 'f\u0000r': nul },
    });
  });

  it('bounds decimal integers as text, and only them', () => {
    const errors = new FormErrors();
    collectTextErrors(
      { a: '9'.repeat(11), b: '-'.concat('9'.repeat(11)), c: 'x'.repeat(100), d: ['9'.repeat(10)] },
      errors,
      10,
    );
    const tooLong = {
      _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 10 or fewer in length.' }],
    };
    expect(errors.toJSON()).toEqual({ a: tooLong, b: tooLong });
  });

  it('counts code points as the API does, surrogate pairs as one', () => {
    expect(codePointLength('a😀b')).toBe(3);
    expect(codePointLength('\ud83d')).toBe(1);
    expect(codePointLength('')).toBe(0);
    const errors = new FormErrors();
    expect(checkLength('😀'.repeat(100), 1, 100, errors, ['a'])).toBe(true);
    expect(checkLength('😀'.repeat(101), 1, 100, errors, ['b'])).toBe(false);
    expect(checkLength('', 1, 100, errors, ['c'])).toBe(false);
    expect(Object.keys(errors.toJSON())).toEqual(['b', 'c']);
  });

  it('judges text by its UTF-16 length when that settles it', () => {
    const errors = new FormErrors();
    expect(checkLength('x'.repeat(1_000_000), 1, 100, errors, ['a'])).toBe(false);
    expect(checkLength('😀'.repeat(60), 1, 100, errors, ['b'])).toBe(true);
    expect(checkLength('😀'.repeat(60), 61, 100, errors, ['c'])).toBe(false);
    expect(Object.keys(errors.toJSON())).toEqual(['a', 'c']);
  });
});
