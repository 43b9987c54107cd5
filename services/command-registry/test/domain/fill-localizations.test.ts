import { fillLocalizations, validateCommand, type NormalizedCommand } from '../../src/domain';
import { GLOBAL, slash, stringOption } from './helpers';

describe('fillLocalizations', () => {
  it('gives every option and choice its dictionaries, null when empty, right after their field', () => {
    const command: NormalizedCommand = validateCommand(
      slash({
        options: [
          {
            type: 1,
            name: 'sub',
            description: 'Sub',
            options: [
              stringOption({
                name_localizations: { fr: 'texte' },
                required: true,
                choices: [
                  { name: 'a', value: 'a' },
                  { name: 'b', name_localizations: { fr: 'bé' }, value: 'b' },
                ],
              }),
            ],
          },
        ],
      }),
      GLOBAL,
    );
    const filled = fillLocalizations(command);
    expect(JSON.stringify(filled)).toBe(
      JSON.stringify({
        type: 1,
        name: 'ping',
        name_localizations: null,
        description: 'Replies with pong',
        description_localizations: null,
        options: [
          {
            type: 1,
            name: 'sub',
            name_localizations: null,
            description: 'Sub',
            description_localizations: null,
            options: [
              {
                type: 3,
                name: 'text',
                name_localizations: { fr: 'texte' },
                description: 'Some text',
                description_localizations: null,
                required: true,
                choices: [
                  { name: 'a', name_localizations: null, value: 'a' },
                  { name: 'b', name_localizations: { fr: 'bé' }, value: 'b' },
                ],
              },
            ],
          },
        ],
        default_member_permissions: null,
        dm_permission: true,
        contexts: null,
        integration_types: [0],
        nsfw: false,
      }),
    );
    // The stored command keeps only the dictionaries that have entries.
    expect(command.options?.[0]).not.toHaveProperty('name_localizations');
  });
});
