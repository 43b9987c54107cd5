import { computeCommandSize } from '../../src/domain/compute-command-size';
import type { NormalizedCommand } from '../../src/domain/normalized-command';
import { validateCommand } from '../../src/domain/validate-command';
import { GLOBAL, commandErrors, oneError, slash, stringOption } from './helpers';

const base = (overrides: Partial<NormalizedCommand> = {}): NormalizedCommand => ({
  type: 1,
  name: 'abcd',
  name_localizations: null,
  description: 'abcdef',
  description_localizations: null,
  default_member_permissions: null,
  nsfw: false,
  ...overrides,
});

describe('computeCommandSize', () => {
  it('sums the command name and description', () => {
    expect(computeCommandSize(base())).toBe(10);
  });

  it('counts only the longest of a default and its localizations', () => {
    expect(computeCommandSize(base({ name_localizations: { fr: 'abcdefgh', de: 'ab' } }))).toBe(8 + 6);
    expect(computeCommandSize(base({ description_localizations: { ja: 'ab' } }))).toBe(4 + 6);
  });

  it('adds names and descriptions of options at every level, and choice names and values as text', () => {
    const command = base({
      options: [
        {
          type: 2,
          name: 'grp',
          description: 'g',
          options: [
            {
              type: 1,
              name: 'sub',
              description: 'ss',
              options: [
                {
                  type: 4,
                  name: 'n',
                  description: 'nnn',
                  name_localizations: { fr: 'nombre' },
                  choices: [
                    { name: 'one', value: 1 },
                    { name: 'big', name_localizations: { de: 'groß!' }, value: 12345 },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    // 10 + grp 3+1 + sub 3+2 + option max(1,6)+3 + choices (3+1) + (max(3,5)+5)
    expect(computeCommandSize(command)).toBe(10 + 4 + 5 + 9 + 4 + 10);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(computeCommandSize(base({ name: '😀😀', description: '' }))).toBe(2);
  });
});

const choice = (key: string, half: number) => ({ name: key.padEnd(half, 'n'), value: key.padEnd(half, 'v') });
const choices100 = (count: number) => Array.from({ length: count }, (_, j) => choice(`c${j}`, 50));

describe('the 8000 rule in validation', () => {
  // name 4 + description 96 = 100; 25 options × (name 2 + description 100) = 2550; total 2650.
  const options = Array.from({ length: 25 }, (_, i) =>
    stringOption({ name: `o${String.fromCharCode(97 + i)}`, description: 'd'.repeat(100) }),
  );
  const body = slash({ name: 'test', description: 'x'.repeat(96), options });
  // Plus 53 choices of 100 characters (5300) and one of 50: exactly 8000.
  const exactOptions = options.map((option, i) => {
    if (i < 2) return { ...option, choices: choices100(25) };
    if (i === 2) return { ...option, choices: [...choices100(3), choice('z', 25)] };
    return option;
  });

  it('accepts a command of exactly 8000', () => {
    const command = validateCommand({ ...body, options: exactOptions }, GLOBAL);
    expect(computeCommandSize(command)).toBe(8000);
  });

  it('is a request-level APPLICATION_COMMAND_TOO_LARGE error one character above', () => {
    const bigger = exactOptions.map((o, i) =>
      i === 3 ? { ...o, description: 'd'.repeat(99), choices: [choice('y', 1)] } : o,
    );
    // option 3: description −1, choice +2 → 8001.
    expect(commandErrors({ ...body, options: bigger })).toEqual(
      oneError([], 'APPLICATION_COMMAND_TOO_LARGE', 'Command exceeds maximum size (8000)'),
    );
  });

  it('counts a longer localization instead of its default', () => {
    expect(commandErrors({ ...body, options: exactOptions, name_localizations: { fr: 'tests' } })).toEqual(
      oneError([], 'APPLICATION_COMMAND_TOO_LARGE'),
    );
    const optionLocalized = exactOptions.map((o, i) =>
      i === 5 ? { ...o, description_localizations: { de: 'd'.repeat(99) + 'x' } } : o,
    );
    expect(() => validateCommand({ ...body, options: optionLocalized }, GLOBAL)).not.toThrow();
  });

  it('ignores a shorter localization', () => {
    expect(() =>
      validateCommand({ ...body, options: exactOptions, name_localizations: { fr: 'tst' } }, GLOBAL),
    ).not.toThrow();
  });
});
