import { localizeCommand } from '../../src/domain/localize-command';
import type { NormalizedCommand } from '../../src/domain/normalized-command';

// The docs' example (D: §Localization, §Retrieving localized commands), as stored.
const birthday: NormalizedCommand & { id: string; version: string } = {
  id: '1',
  version: '2',
  type: 1,
  name: 'birthday',
  name_localizations: { 'zh-CN': '生日', el: 'γενέθλια' },
  description: 'Wish a friend a happy birthday',
  description_localizations: { 'zh-CN': '祝你朋友生日快乐' },
  options: [
    {
      type: 4,
      name: 'age',
      name_localizations: { 'zh-CN': '岁数' },
      description: "Your friend's age",
      description_localizations: { 'zh-CN': '你朋友的岁数' },
    },
    {
      type: 3,
      name: 'gift',
      description: 'A gift',
      choices: [
        { name: 'Cake', name_localizations: { 'zh-CN': '蛋糕', 'en-GB': 'Gateau' }, value: 'cake' },
        { name: 'Card', value: 'card' },
      ],
    },
  ],
  default_member_permissions: null,
  dm_permission: true,
  contexts: null,
  integration_types: [0],
  nsfw: false,
};

describe('localizeCommand', () => {
  it('matches the docs example for zh-CN', () => {
    expect(localizeCommand(birthday, 'zh-CN')).toEqual({
      id: '1',
      version: '2',
      type: 1,
      name: 'birthday',
      name_localized: '生日',
      description: 'Wish a friend a happy birthday',
      description_localized: '祝你朋友生日快乐',
      options: [
        {
          type: 4,
          name: 'age',
          name_localized: '岁数',
          description: "Your friend's age",
          description_localized: '你朋友的岁数',
        },
        {
          type: 3,
          name: 'gift',
          description: 'A gift',
          choices: [
            { name: 'Cake', name_localized: '蛋糕', value: 'cake' },
            { name: 'Card', value: 'card' },
          ],
        },
      ],
      default_member_permissions: null,
      dm_permission: true,
      contexts: null,
      integration_types: [0],
      nsfw: false,
    });
  });

  it('adds only the fields that have a value in the locale', () => {
    const view = localizeCommand(birthday, 'el');
    expect(view.name_localized).toBe('γενέθλια');
    expect(view).not.toHaveProperty('description_localized');
    expect(view.options?.[0]).not.toHaveProperty('name_localized');
  });

  it('puts name_localized right after name', () => {
    expect(Object.keys(localizeCommand(birthday, 'zh-CN')).slice(2, 6)).toEqual([
      'type',
      'name',
      'name_localized',
      'description',
    ]);
  });

  it.each([
    ['en-US', 'Gateau'],
    ['en-GB', 'Gateau'],
  ])('applies the en-US↔en-GB fallback (%s)', (locale, expected) => {
    expect(localizeCommand(birthday, locale).options?.[1]?.choices?.[0]?.name_localized).toBe(expected);
  });

  it('falls back from en-GB to en-US and from es-419 to es-ES, never the reverse', () => {
    const command: NormalizedCommand = {
      ...birthday,
      name_localizations: { 'en-US': 'bday', 'es-ES': 'cumple' },
      description_localizations: { 'es-419': 'Felicita' },
    };
    expect(localizeCommand(command, 'en-GB').name_localized).toBe('bday');
    expect(localizeCommand(command, 'es-419').name_localized).toBe('cumple');
    expect(localizeCommand(command, 'es-ES')).not.toHaveProperty('description_localized');
  });

  it.each([undefined, null, '', 'xx', 'zh'])(
    'adds nothing for locale %p, but still drops the dictionaries',
    (locale) => {
      const view = localizeCommand(birthday, locale);
      expect(JSON.stringify(view)).not.toMatch(/_localized|_localizations/);
    },
  );

  it('does not change the stored command', () => {
    const before = JSON.stringify(birthday);
    localizeCommand(birthday, 'zh-CN');
    expect(JSON.stringify(birthday)).toBe(before);
  });
});
