import { SUPPORTED_LOCALES } from '@acs/validation';
import { validateCommand } from '../../src/domain/validate-command';
import { GLOBAL, commandErrors, oneError, slash, stringOption } from './helpers';

const LOCALE_CHOICES =
  "Value must be one of ('id', 'da', 'de', 'en-GB', 'en-US', 'es-ES', 'es-419', 'fr', 'hr', 'it', 'lt', 'hu', 'nl', " +
  "'no', 'pl', 'pt-BR', 'ro', 'fi', 'sv-SE', 'vi', 'tr', 'cs', 'el', 'bg', 'ru', 'uk', 'hi', 'th', 'zh-CN', 'ja', " +
  "'zh-TW', 'ko', 'ar', 'he').";

describe('localization dictionaries: keys', () => {
  it.each(['pt_BR', 'en', 'EN-US', 'xx', '__proto__', 'constructor'])(
    'rejects key %p with BASE_TYPE_CHOICES at the key itself',
    (key) => {
      const body = slash({ description_localizations: JSON.parse(`{"${key}": "Descrição"}`) as unknown });
      expect(commandErrors(body)).toEqual(
        oneError(['description_localizations', key], 'BASE_TYPE_CHOICES', LOCALE_CHOICES),
      );
    },
  );

  it('keeps a __proto__ key as a plain own key of the error tree', () => {
    const tree = commandErrors(slash({ name_localizations: JSON.parse('{"__proto__": "x"}') as unknown }));
    const node = tree.name_localizations as Record<string, unknown>;
    expect(Object.getPrototypeOf(node)).toBe(Object.prototype);
    expect(Object.keys(node)).toEqual(['__proto__']);
  });

  it('accepts all 34 supported locales', () => {
    const dict = Object.fromEntries(SUPPORTED_LOCALES.map((l, i) => [l, `name${i}`]));
    expect(
      Object.keys(validateCommand(slash({ name_localizations: dict }), GLOBAL).name_localizations ?? {}),
    ).toHaveLength(34);
  });

  it.each([
    ['a string', 'fr'],
    ['a list', ['fr']],
    ['a number', 1],
  ])('rejects %s with DICT_TYPE_CONVERT', (_, value) => {
    expect(commandErrors(slash({ name_localizations: value }))).toEqual(
      oneError(['name_localizations'], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType'),
    );
  });
});

describe('localization dictionaries: values', () => {
  it('applies the CHAT_INPUT name rule to localized command names', () => {
    expect(commandErrors(slash({ name_localizations: { fr: 'Bonjour' } }))).toEqual(
      oneError(['name_localizations', 'fr'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid'),
    );
    expect(commandErrors(slash({ name_localizations: { de: 'x'.repeat(33) } }))).toEqual(
      oneError(['name_localizations', 'de'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 32 in length.'),
    );
  });

  it('allows mixed case in localized names of context-menu commands', () => {
    expect(
      validateCommand({ type: 2, name: 'Profile', name_localizations: { de: 'Profil Anzeigen' } }, GLOBAL)
        .name_localizations,
    ).toEqual({
      de: 'Profil Anzeigen',
    });
  });

  it('applies the description rule to localized descriptions', () => {
    expect(commandErrors(slash({ description_localizations: { fr: 'd'.repeat(101) } }))).toEqual(
      oneError(
        ['description_localizations', 'fr'],
        'BASE_TYPE_BAD_LENGTH',
        'Must be between 1 and 100 in length.',
      ),
    );
  });

  it('rejects non-string values with BASE_TYPE_STRING', () => {
    expect(commandErrors(slash({ name_localizations: { fr: 5 } }))).toEqual(
      oneError(['name_localizations', 'fr'], 'BASE_TYPE_STRING', 'Could not interpret "5" as string.'),
    );
  });

  it('rejects a localized description on context-menu commands', () => {
    expect(commandErrors({ type: 3, name: 'Quote', description_localizations: { fr: 'Citer' } })).toEqual(
      oneError(
        ['description_localizations', 'fr'],
        'APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION_INVALID',
        'Context menu commands cannot have description',
      ),
    );
  });

  it('drops values equal to the default and null values; an empty result is null', () => {
    const command = validateCommand(
      slash({
        name_localizations: { fr: 'ping', de: null },
        description_localizations: { fr: 'Répond pong', de: 'Replies with pong' },
      }),
      GLOBAL,
    );
    expect(command.name_localizations).toBeNull();
    expect(command.description_localizations).toEqual({ fr: 'Répond pong' });
  });

  it('turns an empty dictionary into null', () => {
    expect(validateCommand(slash({ name_localizations: {} }), GLOBAL).name_localizations).toBeNull();
  });

  it('omits empty dictionaries on options', () => {
    const option = validateCommand(
      slash({ options: [stringOption({ name_localizations: { fr: 'text' } })] }),
      GLOBAL,
    ).options?.[0];
    expect(option).not.toHaveProperty('name_localizations');
  });
});

describe('localization dictionaries: option name uniqueness', () => {
  const options = (first: Record<string, unknown>, second: Record<string, unknown>) =>
    slash({
      options: [stringOption({ name: 'user', ...first }), stringOption({ name: 'reason', ...second })],
    });

  it('rejects a localized name equal to another option’s default name', () => {
    expect(commandErrors(options({}, { name_localizations: { fr: 'user' } }))).toEqual(
      oneError(
        ['options', 1, 'name_localizations', 'fr'],
        'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS',
        'Option names must be unique',
      ),
    );
  });

  it('rejects the same localized name twice within one locale, on the later option', () => {
    expect(
      commandErrors(
        options({ name_localizations: { de: 'grund' } }, { name_localizations: { de: 'grund' } }),
      ),
    ).toEqual(
      oneError(['options', 1, 'name_localizations', 'de'], 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS'),
    );
  });

  it('allows the same localized name in different locales', () => {
    const body = options({ name_localizations: { de: 'nutzer' } }, { name_localizations: { nl: 'nutzer' } });
    expect(validateCommand(body, GLOBAL).options).toHaveLength(2);
  });

  it('validates option name localizations with the CHAT_INPUT name rule', () => {
    expect(commandErrors(options({ name_localizations: { fr: 'Utilisateur' } }, {}))).toEqual(
      oneError(['options', 0, 'name_localizations', 'fr'], 'APPLICATION_COMMAND_INVALID_NAME'),
    );
  });
});
