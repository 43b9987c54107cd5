import { searchDocumentOf } from '../../../src/domain/search';

describe('searchDocumentOf', () => {
  it('reads what the filters compare from a message object', () => {
    const document = searchDocumentOf({
      id: '3',
      guildId: '1',
      channelId: '2',
      pinned: true,
      body: {
        type: 19,
        content: 'see https://Docs.Example.com/x and <@5>',
        author: { id: '4', bot: true },
        mentions: [{ id: '5' }],
        mention_roles: ['6'],
        mention_everyone: false,
        message_reference: { type: 0, message_id: '7' },
        referenced_message: { id: '7', author: { id: '8' } },
        embeds: [{ type: 'gifv', provider: { name: 'Tenor' } }],
        attachments: [{ filename: 'cat.PNG', content_type: 'image/png' }],
      },
    });
    expect(document).toMatchObject({
      authorId: '4',
      authorType: 'bot',
      mentionIds: ['5'],
      mentionRoleIds: ['6'],
      repliedToUserId: '8',
      repliedToMessageId: '7',
      pinned: true,
      embedTypes: ['gif'],
      embedProviders: ['Tenor'],
      linkHostnames: ['docs.example.com'],
      attachmentExtensions: ['png'],
      attachmentFilenames: ['cat.PNG'],
    });
    expect(new Set(document.has)).toEqual(new Set(['file', 'image', 'video', 'embed', 'link']));
  });

  it('tells users and webhooks apart and has nothing for a plain message', () => {
    const plain = searchDocumentOf({
      id: '3',
      guildId: '1',
      channelId: '2',
      pinned: false,
      body: { content: 'hi', author: { id: '4' } },
    });
    expect(plain).toMatchObject({
      authorType: 'user',
      has: [],
      repliedToUserId: null,
      repliedToMessageId: null,
    });
    const hook = searchDocumentOf({
      id: '3',
      guildId: '1',
      channelId: '2',
      pinned: false,
      body: { webhook_id: '9', author: { id: '9', bot: true } },
    });
    expect(hook.authorType).toBe('webhook');
  });
});
