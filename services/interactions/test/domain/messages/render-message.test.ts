import {
  EmptyMessageError,
  applyMessageEdit,
  completeLoadingMessage,
  formatTimestamp,
  isLoading,
  readMessageSource,
  renderLoadingMessage,
  renderMessage,
  validateMessage,
} from '../../../src/domain/messages';
import { discordErrorOf, formErrorsOf, oneError } from '../form-errors-of';

const APP = '1300000000000000001';
const BOT = {
  id: APP,
  username: 'Pinger',
  discriminator: '0000',
  avatar: null,
  bot: true,
  global_name: null,
};
const USER = {
  id: '1300000000000000010',
  username: 'alice',
  discriminator: '0',
  avatar: null,
  global_name: 'Alice',
};
const TARGET = {
  id: '1300000000000000011',
  username: 'bob',
  discriminator: '0',
  avatar: null,
  global_name: null,
};

/** An interaction object as the app received it, without its token. */
function interaction(overrides: Record<string, unknown> = {}, data: Record<string, unknown> = {}) {
  return {
    id: '1300000000000000500',
    application_id: APP,
    type: 2,
    data: { id: '1300000000000000300', name: 'ping', type: 1, ...data },
    guild_id: '1300000000000000100',
    channel_id: '1300000000000000200',
    member: { user: USER, roles: [], permissions: '8' },
    authorizing_integration_owners: { '0': '1300000000000000100' },
    version: 1,
    ...overrides,
  };
}

const CREATED = new Date('2026-11-24T07:20:00.123Z');

describe('formatTimestamp', () => {
  it('writes UTC with +00:00 and microseconds, as Discord does', () => {
    expect(formatTimestamp(CREATED)).toBe('2026-11-24T07:20:00.123000+00:00');
    expect(formatTimestamp(new Date('2026-11-24T07:20:00.007Z'))).toBe('2026-11-24T07:20:00.007000+00:00');
  });

  it('omits the fraction of a whole second', () => {
    expect(formatTimestamp(new Date('2026-11-24T07:20:00Z'))).toBe('2026-11-24T07:20:00+00:00');
  });
});

describe('renderMessage', () => {
  it('renders a slash command response: type 20, the bot as author, the interaction metadata', () => {
    const source = readMessageSource(interaction(), BOT);
    const message = renderMessage(source, {
      id: '1300000000000000600',
      createdAt: CREATED,
      ...validateMessage({ content: 'pong', tts: true, flags: 4 }),
    });
    expect(message).toEqual({
      type: 20,
      content: 'pong',
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      timestamp: '2026-11-24T07:20:00.123000+00:00',
      edited_timestamp: null,
      flags: 4,
      components: [],
      id: '1300000000000000600',
      channel_id: '1300000000000000200',
      author: BOT,
      pinned: false,
      mention_everyone: false,
      tts: true,
      application_id: APP,
      interaction: { id: '1300000000000000500', type: 2, name: 'ping', user: USER },
      webhook_id: APP,
      interaction_metadata: {
        id: '1300000000000000500',
        type: 2,
        user: USER,
        authorizing_integration_owners: { '0': '1300000000000000100' },
        name: 'ping',
        command_type: 1,
      },
    });
  });

  it('names the command with its subcommand group and subcommand', () => {
    const source = readMessageSource(
      interaction(
        {},
        {
          name: 'tag',
          options: [
            {
              name: 'admin',
              type: 2,
              options: [{ name: 'edit', type: 1, options: [{ name: 'x', type: 3, value: 'v' }] }],
            },
          ],
        },
      ),
      BOT,
    );
    expect(source.commandName).toBe('tag admin edit');
  });

  it('renders USER commands as type 23 with target_user, MESSAGE commands with target_message_id', () => {
    const user = readMessageSource(
      interaction(
        {},
        { name: 'Profile', type: 2, target_id: TARGET.id, resolved: { users: { [TARGET.id]: TARGET } } },
      ),
      BOT,
    );
    const byUser = renderMessage(user, {
      id: '1',
      createdAt: CREATED,
      content: 'x',
      embeds: [],
      tts: false,
      flags: 0,
    });
    expect(byUser.type).toBe(23);
    expect(byUser.interaction_metadata).toMatchObject({
      name: 'Profile',
      command_type: 2,
      target_user: TARGET,
    });

    const onMessage = readMessageSource(
      interaction({}, { name: 'Quote', type: 3, target_id: '1300000000000000700' }),
      BOT,
    );
    const byMessage = renderMessage(onMessage, {
      id: '2',
      createdAt: CREATED,
      content: 'x',
      embeds: [],
      tts: false,
      flags: 0,
    });
    expect(byMessage.type).toBe(23);
    expect(byMessage.interaction_metadata).toMatchObject({
      command_type: 3,
      target_message_id: '1300000000000000700',
    });
    expect(byMessage.interaction_metadata).not.toHaveProperty('target_user');
  });

  it('reads the invoker from `user` outside a guild, and marks follow-ups with the original response', () => {
    const dm = interaction({
      guild_id: undefined,
      member: undefined,
      user: USER,
      authorizing_integration_owners: { '1': USER.id },
    });
    const message = renderMessage(readMessageSource(dm, BOT), {
      id: '3',
      createdAt: CREATED,
      content: 'later',
      embeds: [],
      tts: false,
      flags: 64,
      originalResponseMessageId: '1300000000000000600',
    });
    expect(message.interaction_metadata).toEqual({
      id: '1300000000000000500',
      type: 2,
      user: USER,
      authorizing_integration_owners: { '1': USER.id },
      name: 'ping',
      command_type: 1,
      original_response_message_id: '1300000000000000600',
    });
    expect(message.interaction.user).toEqual(USER);
  });

  it('renders the loading message of a defer: no content, LOADING (+ EPHEMERAL)', () => {
    const source = readMessageSource(interaction(), BOT);
    expect(renderLoadingMessage(source, '4', CREATED, false)).toMatchObject({ content: '', flags: 128 });
    expect(renderLoadingMessage(source, '4', CREATED, true).flags).toBe(128 | 64);
    expect(isLoading(renderLoadingMessage(source, '4', CREATED, true))).toBe(true);
  });
});

describe('editing', () => {
  const source = readMessageSource(interaction(), BOT);
  const EDITED = new Date('2026-11-24T07:21:00Z');
  const posted = renderMessage(source, {
    id: '5',
    createdAt: CREATED,
    ...validateMessage({ content: 'pong', embeds: [{ title: 'Title' }], flags: 64 | 4096 }),
  });

  it('replaces the fields the edit has and marks the message edited', () => {
    const edited = applyMessageEdit(posted, { content: 'pong!' }, EDITED);
    expect(edited).toEqual({
      ...posted,
      content: 'pong!',
      edited_timestamp: '2026-11-24T07:21:00+00:00',
    });
    expect(applyMessageEdit(posted, { embeds: [] }, EDITED).embeds).toEqual([]);
  });

  it('toggles SUPPRESS_EMBEDS, turns IS_COMPONENTS_V2 on only, keeps the other flags', () => {
    const suppressed = applyMessageEdit(posted, { flags: 4 }, EDITED);
    expect(suppressed.flags).toBe(64 | 4096 | 4);
    expect(applyMessageEdit(suppressed, { flags: 0 }, EDITED).flags).toBe(64 | 4096);
    // EPHEMERAL cannot be removed, nor added to a public message.
    const pub = renderMessage(source, {
      id: '6',
      createdAt: CREATED,
      content: 'x',
      embeds: [],
      tts: false,
      flags: 0,
    });
    expect(applyMessageEdit(pub, { flags: 64 }, EDITED).flags).toBe(0);
  });

  it('refuses an edit that leaves nothing to show, or mixes components v2 with content', () => {
    expect(
      discordErrorOf(() => applyMessageEdit(posted, { content: '', embeds: [] }, EDITED)),
    ).toBeInstanceOf(EmptyMessageError);
    expect(formErrorsOf(() => applyMessageEdit(posted, { embeds: [], flags: 32768 }, EDITED))).toEqual(
      oneError(['content'], 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2'),
    );
    // Callback 7's edit answers at `data…`.
    expect(
      formErrorsOf(() =>
        applyMessageEdit(posted, { embeds: [], flags: 32768 }, EDITED, { basePath: ['data'] }),
      ),
    ).toEqual(oneError(['data', 'content'], 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2'));
  });

  it('reads the components of an edit against the flags the message ends up with', () => {
    const text = [{ type: 10, content: 'now in v2' }];
    const v2 = applyMessageEdit(posted, { content: '', embeds: [], flags: 32768, components: text }, EDITED);
    expect(v2.flags & 32768).toBe(32768);
    expect(v2).toMatchObject({ components: [{ type: 10, id: 1, content: 'now in v2' }] });
    expect(
      formErrorsOf(() => applyMessageEdit(posted, { components: text }, EDITED, { basePath: ['data'] })),
    ).toEqual(oneError(['data', 'components', 0, 'type'], 'UNION_TYPE_CHOICES'));
    const row = [{ type: 1, components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go' }] }];
    expect(applyMessageEdit(posted, { components: row }, EDITED).components).toHaveLength(1);
    expect(applyMessageEdit(posted, { components: null }, EDITED).components).toEqual([]);
  });

  it("fills a loading message without marking it edited, keeping the defer's ephemerality", () => {
    const loading = renderLoadingMessage(source, '7', CREATED, true);
    const filled = applyMessageEdit(loading, { content: 'done' }, EDITED);
    expect(filled).toMatchObject({ content: 'done', flags: 64, edited_timestamp: null });
    expect(isLoading(filled)).toBe(false);
    expect(applyMessageEdit(filled, { content: 'again' }, EDITED).edited_timestamp).toBe(
      '2026-11-24T07:21:00+00:00',
    );
    expect(discordErrorOf(() => applyMessageEdit(loading, {}, EDITED))).toBeInstanceOf(EmptyMessageError);
  });

  it('a follow-up after a defer fills the loading message and ignores its own EPHEMERAL flag', () => {
    const publicLoading = renderLoadingMessage(source, '8', CREATED, false);
    const filled = completeLoadingMessage(
      publicLoading,
      validateMessage({ content: 'hi', flags: 64 | 4 }),
      EDITED,
    );
    expect(filled).toMatchObject({ id: '8', content: 'hi', flags: 4, edited_timestamp: null });

    const ephemeralLoading = renderLoadingMessage(source, '9', CREATED, true);
    expect(completeLoadingMessage(ephemeralLoading, validateMessage({ content: 'hi' }), EDITED).flags).toBe(
      64,
    );
  });
});
