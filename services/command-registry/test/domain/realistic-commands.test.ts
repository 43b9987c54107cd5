import { validateBulk } from '../../src/domain/validate-bulk';
import { validateCommand } from '../../src/domain/validate-command';
import { localizeCommand } from '../../src/domain/localize-command';
import { GLOBAL, GLOBAL_EMBEDDED, GUILD, commandErrors } from './helpers';

// A moderation command with groups, sub-commands, every value type and localizations.
const moderation = {
  name: 'mod',
  description: 'Moderation tools',
  name_localizations: { de: 'moderation', 'pt-BR': 'moderação' },
  description_localizations: { de: 'Moderationswerkzeuge', 'en-US': 'Moderation tools' },
  default_member_permissions: '1099511627776',
  contexts: [0],
  integration_types: [0],
  options: [
    {
      type: 2,
      name: 'user',
      description: 'Act on a member',
      name_localizations: { de: 'nutzer' },
      options: [
        {
          type: 1,
          name: 'timeout',
          description: 'Time a member out',
          options: [
            {
              type: 6,
              name: 'member',
              description: 'Who',
              required: true,
              name_localizations: { de: 'mitglied' },
            },
            {
              type: 4,
              name: 'minutes',
              description: 'How long',
              required: true,
              min_value: 1,
              max_value: 40320,
            },
            {
              type: 3,
              name: 'reason',
              description: 'Why',
              max_length: 512,
              choices: [
                { name: 'Spam', value: 'spam', name_localizations: { de: 'Spam', fr: 'Pourriel' } },
                { name: 'Harassment', value: 'harassment' },
              ],
            },
            { type: 11, name: 'evidence', description: 'A screenshot', file_types: ['image'] },
          ],
        },
        {
          type: 1,
          name: 'warn',
          description: 'Warn a member',
          options: [{ type: 9, name: 'target', description: 'Who', required: true }],
        },
      ],
    },
    {
      type: 2,
      name: 'channel',
      description: 'Act on a channel',
      options: [
        {
          type: 1,
          name: 'slowmode',
          description: 'Set slowmode',
          options: [
            { type: 7, name: 'channel', description: 'Which', required: true, channel_types: [0, 5, 15] },
            {
              type: 10,
              name: 'seconds',
              description: 'Delay',
              required: true,
              min_value: 0,
              max_value: 21600,
            },
            { type: 5, name: 'silent', description: 'Say nothing' },
          ],
        },
      ],
    },
    {
      type: 1,
      name: 'status',
      description: 'Show moderation status',
      options: [{ type: 8, name: 'role', description: 'Filter by role', autocomplete: false }],
    },
  ],
};

describe('realistic commands', () => {
  it('normalizes a nested, localized moderation command', () => {
    const command = validateCommand(moderation, GLOBAL);
    expect(command.name_localizations).toEqual({ de: 'moderation', 'pt-BR': 'moderação' });
    // The en-US description equals the default, so it is dropped.
    expect(command.description_localizations).toEqual({ de: 'Moderationswerkzeuge' });
    expect(command.default_member_permissions).toBe('1099511627776');
    const timeout = command.options?.[0]?.options?.[0];
    expect(timeout?.options?.map((o) => o.name)).toEqual(['member', 'minutes', 'reason', 'evidence']);
    expect(timeout?.options?.[2]).toEqual({
      type: 3,
      name: 'reason',
      description: 'Why',
      choices: [
        { name: 'Spam', value: 'spam', name_localizations: { fr: 'Pourriel' } },
        { name: 'Harassment', value: 'harassment' },
      ],
      max_length: 512,
    });
    expect(command.options?.[2]?.options?.[0]).toEqual({
      type: 8,
      name: 'role',
      description: 'Filter by role',
    });
  });

  it('is idempotent: validating the normalized command again gives the same command', () => {
    const once = validateCommand(moderation, GLOBAL);
    expect(validateCommand(JSON.parse(JSON.stringify(once)), GLOBAL)).toEqual(once);
  });

  it('localizes the nested command for a German requester', () => {
    const view = localizeCommand(validateCommand(moderation, GLOBAL), 'de');
    expect(view.name_localized).toBe('moderation');
    expect(view.options?.[0]?.name_localized).toBe('nutzer');
    expect(view.options?.[0]?.options?.[0]?.options?.[0]?.name_localized).toBe('mitglied');
    expect(JSON.stringify(view)).not.toContain('_localizations');
  });

  it('reports several mistakes deep in the tree at once', () => {
    const broken = JSON.parse(JSON.stringify(moderation));
    broken.options[0].options[0].options[1].min_value = 1.5;
    broken.options[0].options[0].options[3].required = true; // required after the optional `reason`
    broken.options[1].options[0].options[2].choices = [{ name: 'x', value: 'y' }];
    broken.options[0].name_localizations = { de: 'channel' };
    expect(commandErrors(broken)).toEqual({
      options: {
        '0': {
          name_localizations: {
            de: {
              _errors: [
                {
                  code: 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS',
                  message: 'Option names must be unique',
                },
              ],
            },
          },
          options: {
            '0': {
              options: {
                '1': {
                  min_value: {
                    _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "1.5" is not int.' }],
                  },
                },
                '3': {
                  _errors: [
                    {
                      code: 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
                      message: 'Required options must be placed before non-required options',
                    },
                  ],
                },
              },
            },
          },
        },
        '1': {
          options: {
            '0': {
              options: {
                '2': {
                  choices: {
                    _errors: [
                      {
                        code: 'APPLICATION_COMMAND_CHOICES_INVALID',
                        message: 'Choices can only be set on STRING (3), INTEGER (4) and NUMBER (10) options',
                      },
                    ],
                  },
                },
              },
            },
          },
        },
      },
    });
  });

  it('accepts a typical bot bulk: slash, user and message commands, for a guild', () => {
    const result = validateBulk(
      [
        { name: 'ping', description: 'Check latency' },
        {
          name: 'echo',
          description: 'Repeat text',
          options: [{ type: 3, name: 'text', description: 'What to say', required: true, max_length: 2000 }],
        },
        { type: 2, name: 'View Profile' },
        { type: 3, name: 'Translate', name_localizations: { fr: 'Traduire' } },
      ],
      GUILD,
    );
    expect(result.map((r) => r.command.type)).toEqual([1, 1, 2, 3]);
    expect(result[3]?.command).toEqual({
      type: 3,
      name: 'Translate',
      name_localizations: { fr: 'Traduire' },
      description: '',
      description_localizations: null,
      default_member_permissions: null,
      nsfw: false,
    });
  });

  it('accepts the docs example entry point', () => {
    expect(
      validateCommand(
        { name: 'launch', description: 'Launch Racing with Friends', type: 4, handler: 2 },
        GLOBAL_EMBEDDED,
      ),
    ).toMatchObject({
      type: 4,
      handler: 2,
      description: 'Launch Racing with Friends',
    });
  });
});
