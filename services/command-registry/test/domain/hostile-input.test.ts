import { longestBigIntText } from '@acs/testing';
import { mergeCommandPatch, validateBulk, validateCommand } from '../../src/domain';
import {
  GLOBAL,
  codesAt,
  commandErrors,
  formErrorsOf,
  oneError,
  slash,
  stringOption,
  withOption,
} from './helpers';

// Input sized to hurt: every rule must cost CPU in proportion to the body, cheaply, and
// refuse what PostgreSQL cannot hold before it gets there.

const MEGABYTE_OF_NINES = '9'.repeat(1_000_000);

/** CPU milliseconds `run` takes (CPU time, so that a busy machine does not count). */
function cpuMs(run: () => void): number {
  const started = process.cpuUsage();
  run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

const NUL = 'STRING_TYPE_NUL_CHARACTER';

describe('default_member_permissions of a megabyte of digits', () => {
  const tooLarge = oneError(
    ['default_member_permissions'],
    'NUMBER_TYPE_MAX',
    'int value should be less than or equal to 18014398509481983.',
  );

  it('is NUMBER_TYPE_MAX before any BigInt work, on create', async () => {
    // BigInt of these digits alone took 100-200 ms of the registry's one event loop; a
    // bit set is converted only once it is known to have at most 20 digits.
    let tree: unknown;
    const longest = await longestBigIntText(() => {
      tree = commandErrors(slash({ default_member_permissions: MEGABYTE_OF_NINES }));
    });
    expect(tree).toEqual(tooLarge);
    expect(longest).toBeLessThanOrEqual(20);
  });

  it('is refused the same way through PATCH and in each bulk item', async () => {
    const stored = validateCommand(slash(), GLOBAL);
    const longest = await longestBigIntText(() => {
      expect(
        formErrorsOf(() =>
          validateCommand(
            mergeCommandPatch(stored, { default_member_permissions: MEGABYTE_OF_NINES }),
            GLOBAL,
          ),
        ),
      ).toEqual(tooLarge);
      const bulk = formErrorsOf(() =>
        validateBulk(
          [0, 1].map((i) => slash({ name: `c${i}`, default_member_permissions: MEGABYTE_OF_NINES.slice(i) })),
          GLOBAL,
        ),
      );
      expect(codesAt(bulk, [0, 'default_member_permissions'])).toEqual(['NUMBER_TYPE_MAX']);
      expect(codesAt(bulk, [1, 'default_member_permissions'])).toEqual(['NUMBER_TYPE_MAX']);
    });
    expect(longest).toBeLessThanOrEqual(20);
  });

  it('still reads bit sets as strings and integers, leading zeros and all', () => {
    expect(
      validateCommand(slash({ default_member_permissions: '0008' }), GLOBAL).default_member_permissions,
    ).toBe('8');
    expect(validateCommand(slash({ default_member_permissions: 8 }), GLOBAL).default_member_permissions).toBe(
      '8',
    );
    expect(commandErrors(slash({ default_member_permissions: '-8' }))).toEqual(
      oneError(['default_member_permissions'], 'NUMBER_TYPE_MIN'),
    );
  });
});

describe('lists far over their limit', () => {
  it('stop at the length error instead of comparing every option with every other', () => {
    const options = Array.from({ length: 30_000 }, (_, i) => stringOption({ name: `o${i}` }));
    let tree: unknown;
    const used = cpuMs(() => {
      tree = commandErrors(slash({ options }));
    });
    expect(tree).toEqual(oneError(['options'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.'));
    // Comparing every pair of 30,000 names is 450 million comparisons, seconds of CPU; the
    // bound leaves a busy machine ten times the few milliseconds one pass takes.
    expect(used).toBeLessThan(500);
  });

  it('stop at the length error for file types and choices too', () => {
    const fileTypes = Array.from({ length: 50_000 }, (_, i) => `.e${i}`);
    expect(commandErrors(withOption(stringOption({ type: 11, file_types: fileTypes })))).toEqual(
      oneError(['options', 0, 'file_types'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.'),
    );
    const choices = Array.from({ length: 50_000 }, (_, i) => ({ name: `c${i}`, value: `v${i}` }));
    expect(commandErrors(withOption(stringOption({ choices })))).toEqual(
      oneError(['options', 0, 'choices'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.'),
    );
  });

  it('bound each file type, which counts toward no size cap', () => {
    expect(
      commandErrors(withOption(stringOption({ type: 11, file_types: [`.${'a'.repeat(100_000)}`] }))),
    ).toEqual(oneError(['options', 0, 'file_types', 0], 'APPLICATION_COMMAND_FILE_TYPES_INVALID'));
  });
});

describe('ids of bulk items', () => {
  it('stop at 2^63 - 1 with NUMBER_TYPE_MAX, as every id does', () => {
    const tree = formErrorsOf(() =>
      validateBulk(
        [
          { id: '9223372036854775808', ...slash({ name: 'a' }) },
          { id: '18446744073709551615', ...slash({ name: 'b' }) },
          { id: MEGABYTE_OF_NINES, ...slash({ name: 'c' }) },
          { id: 'x', ...slash({ name: 'd' }) },
        ],
        GLOBAL,
      ),
    );
    expect([0, 1, 2, 3].map((i) => codesAt(tree, [i, 'id']))).toEqual([
      ['NUMBER_TYPE_MAX'],
      ['NUMBER_TYPE_MAX'],
      ['NUMBER_TYPE_MAX'],
      ['NUMBER_TYPE_COERCE'],
    ]);
    expect(validateBulk([{ id: '9223372036854775807', ...slash() }], GLOBAL)[0]?.id).toBe(
      '9223372036854775807',
    );
  });
});

describe('U+0000', () => {
  it('is refused in every text field, at its path', () => {
    const tree = commandErrors(
      slash({
        description: 'a\u0000',
        name_localizations: { fr: 'n\u0000' },
        options: [
          stringOption({
            description_localizations: { de: '\u0000' },
            choices: [{ name: 'c\u0000', value: 'v\u0000' }],
          }),
        ],
      }),
    );
    expect(codesAt(tree, ['description'])).toEqual([NUL]);
    expect(codesAt(tree, ['name_localizations', 'fr'])).toEqual([NUL]);
    expect(codesAt(tree, ['options', 0, 'description_localizations', 'de'])).toEqual([NUL]);
    expect(codesAt(tree, ['options', 0, 'choices', 0, 'name'])).toEqual([NUL]);
    expect(codesAt(tree, ['options', 0, 'choices', 0, 'value'])).toEqual([NUL]);
  });
});

describe('a localization key named _errors', () => {
  it('is reported on its dictionary, whose _errors stays a list', () => {
    const tree = commandErrors(slash({ name_localizations: { _errors: 'x', xx: 'y' } }));
    const node = tree.name_localizations as Record<string, unknown>;
    expect(Array.isArray(node._errors)).toBe(true);
    expect(codesAt(tree, ['name_localizations'])).toEqual(['BASE_TYPE_CHOICES']);
    expect(codesAt(tree, ['name_localizations', 'xx'])).toEqual(['BASE_TYPE_CHOICES']);
  });
});
