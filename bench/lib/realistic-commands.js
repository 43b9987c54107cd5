'use strict';
/**
 * Realistic commands of about 1 KB each: a subcommand group, options with choices and
 * a few localizations — the size bots really register.
 *
 * @param {number} count
 * @param {string} variant  changes every description, so that an overwrite really changes the commands
 */
function realisticCommands(count, variant = 'a') {
  return Array.from({ length: count }, (_, i) => ({
    name: `command-${i}`,
    description: `Manages the ${i}th feature of the server (${variant})`,
    name_localizations: { fr: `commande-${i}`, de: `befehl-${i}` },
    description_localizations: { fr: `Gère la fonctionnalité ${i} (${variant})` },
    options: [
      {
        type: 1,
        name: 'show',
        description: 'Shows the current settings of this feature',
        options: [
          { type: 7, name: 'channel', description: 'Where to look', channel_types: [0, 5] },
          { type: 5, name: 'ephemeral', description: 'Only you see the answer' },
        ],
      },
      {
        type: 1,
        name: 'set',
        description: 'Changes one setting of this feature',
        options: [
          {
            type: 3,
            name: 'mode',
            description: 'The mode to switch to',
            required: true,
            choices: ['off', 'quiet', 'normal', 'loud', 'debug'].map((m) => ({ name: m, value: m })),
          },
          { type: 4, name: 'limit', description: 'How many per minute', min_value: 1, max_value: 1000 },
          { type: 3, name: 'reason', description: 'Why (shown in the audit log)', max_length: 200 },
        ],
      },
    ],
  }));
}

module.exports = { realisticCommands };
