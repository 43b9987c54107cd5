import { commandsEqual } from '../../src/domain/commands-equal';
import { validateCommand } from '../../src/domain/validate-command';
import { GLOBAL, slash, stringOption } from './helpers';

describe('commandsEqual', () => {
  const body = slash({
    name_localizations: { fr: 'sonde' },
    options: [
      stringOption({ required: true, choices: [{ name: 'A', value: 'a' }] }),
      stringOption({ name: 'b' }),
    ],
  });

  it('is true for the same body, whatever the key order or defaults spelled out', () => {
    const reordered = {
      options: [
        {
          choices: [{ value: 'a', name: 'A' }],
          required: true,
          description: 'Some text',
          name: 'text',
          type: 3,
        },
        { type: 3, name: 'b', description: 'Some text', required: false, autocomplete: false },
      ],
      description: 'Replies with pong',
      name_localizations: { fr: 'sonde', de: 'ping' },
      name: 'ping',
      type: 1,
      nsfw: false,
      dm_permission: true,
      integration_types: [0],
    };
    expect(commandsEqual(validateCommand(body, GLOBAL), validateCommand(reordered, GLOBAL))).toBe(true);
  });

  it.each([
    ['description', { description: 'Other' }],
    ['localization', { name_localizations: { fr: 'autre' } }],
    ['option order', { options: [stringOption({ name: 'b' }), stringOption({ required: false })] }],
    ['permissions', { default_member_permissions: '0' }],
    ['nsfw', { nsfw: true }],
    ['contexts', { contexts: [0] }],
  ])('is false when the %s differs', (_, change) => {
    expect(
      commandsEqual(validateCommand(body, GLOBAL), validateCommand({ ...body, ...change }, GLOBAL)),
    ).toBe(false);
  });

  it('tells a missing key from a present one', () => {
    const a = validateCommand(slash(), GLOBAL);
    expect(commandsEqual(a, { ...a, handler: 1 })).toBe(false);
    expect(commandsEqual(a, { ...a, handler: undefined })).toBe(true);
  });
});
