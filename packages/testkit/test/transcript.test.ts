import { Transcript } from '../src/world/transcript';
import type { DiscordMessage, InteractionResult } from '../src/world/types';

const message = (id: string, content: string, extra: Partial<DiscordMessage> = {}): DiscordMessage => ({
  id,
  channel_id: '5',
  content,
  embeds: [],
  components: [],
  flags: 0,
  attachments: [],
  author: { id: '9', username: 'Dice' },
  ...extra,
});

const result = (fields: Partial<InteractionResult>): InteractionResult => ({
  ok: true,
  acknowledged: true,
  deferred: false,
  ephemeral: false,
  response: null,
  followups: [],
  modal: null,
  choices: null,
  error: null,
  interaction: null,
  ...fields,
});

it('tells interactions with their answers, and messages heard once however many users heard them', () => {
  const transcript = new Transcript();
  transcript.note('world: a guild');
  const posted = { t: 'MESSAGE_CREATE', d: message('1', 'hello all') };
  transcript.observe(posted, 'general');
  transcript.observe(posted, 'general'); // bob heard it too
  // Heard while the interaction ran, then told by its result: once, with the result.
  transcript.observe({ t: 'MESSAGE_CREATE', d: message('2', '🎲 6', { flags: 64 }) }, 'general');
  transcript.interaction(
    'alice',
    '/roll  (#general)',
    result({ response: message('2', '🎲 6', { flags: 64 }) }),
  );
  transcript.interaction(
    'alice',
    'autocomplete /roll sides:1  (#general)',
    result({ choices: [{ name: 'd10', value: 10 }] }),
  );
  transcript.interaction(
    'bob',
    '/broken  (#general)',
    result({ ok: false, acknowledged: false, error: 'it failed\nbecause' }),
  );
  // An edit after the interaction settled is told as heard.
  transcript.observe({ t: 'MESSAGE_UPDATE', d: message('2', '🎲 5', { flags: 64 }) }, 'general');
  expect(transcript.text()).toBe(
    [
      '· world: a guild',
      '#general posted · Dice: hello all',
      'alice › /roll  (#general)',
      '  ↳ Dice (only you can see this): 🎲 6',
      'alice › autocomplete /roll sides:1  (#general)',
      '  ↳ 1 choice(s): d10 = 10',
      'bob › /broken  (#general)',
      '  ✗ it failed',
      '    because',
      '#general edited · Dice (only you can see this): 🎲 5',
    ].join('\n'),
  );
});
