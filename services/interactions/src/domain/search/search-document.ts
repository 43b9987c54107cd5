// What search keeps of a message (the `search_document` row): the values the filters of
// Search Guild Messages compare, computed from the stored message object. Pure: the indexer
// and the event consumer call it off the request path.
import type { AuthorType, HasOption } from './read-search-query';

/** A stored message as the indexer reads it. */
export interface IndexedMessageRow {
  id: string;
  guildId: string;
  channelId: string;
  /** The message object as the API answers it. */
  body: Record<string, unknown>;
  pinned: boolean;
}

/** A row of `search_document`; `content` is the text PostgreSQL turns into a tsvector. */
export interface SearchDocument {
  messageId: string;
  guildId: string;
  channelId: string;
  authorId: string;
  authorType: AuthorType;
  content: string;
  mentionIds: string[];
  mentionRoleIds: string[];
  mentionEveryone: boolean;
  repliedToUserId: string | null;
  repliedToMessageId: string | null;
  pinned: boolean;
  has: HasOption[];
  embedTypes: string[];
  embedProviders: string[];
  linkHostnames: string[];
  attachmentExtensions: string[];
  attachmentFilenames: string[];
}

type Json = Record<string, unknown>;

const objects = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((item): item is Json => typeof item === 'object' && item !== null) : [];
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const idOf = (value: unknown): string | null => {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as Json).id;
  return typeof id === 'string' ? id : null;
};

/** http(s) links of a text; the URL grammar is a single linear pass of the regex engine. */
const LINK = /\bhttps?:\/\/([a-z0-9.-]{1,253})/gi;

/** Embed types as `embed_type` names them (`gifv` is `gif`; rich embeds have none). */
const EMBED_TYPE_NAMES: Record<string, string> = {
  image: 'image',
  video: 'video',
  gifv: 'gif',
  article: 'article',
  sound: 'sound',
};

/** The document of a message (D:resources/message.mdx §Search Guild Messages, the filters' meaning). */
export function searchDocumentOf(row: IndexedMessageRow): SearchDocument {
  const { body } = row;
  const author = (typeof body.author === 'object' && body.author !== null ? body.author : {}) as Json;
  const authorType: AuthorType =
    typeof body.webhook_id === 'string' ? 'webhook' : author.bot === true ? 'bot' : 'user';
  const content = text(body.content);
  const embeds = objects(body.embeds);
  const attachments = objects(body.attachments);
  const types = (prefix: string) =>
    attachments.some((attachment) => text(attachment.content_type).startsWith(prefix));

  const hosts = new Set<string>();
  for (const source of [content, ...embeds.map((embed) => text(embed.url))]) {
    for (const match of source.matchAll(LINK)) hosts.add((match[1] ?? '').toLowerCase());
  }
  const embedTypes = [...new Set(embeds.flatMap((embed) => EMBED_TYPE_NAMES[text(embed.type)] ?? []))];
  const has = new Set<HasOption>();
  if (attachments.length > 0) has.add('file');
  if (types('image/') || embedTypes.includes('image') || embeds.some((embed) => embed.image))
    has.add('image');
  if (types('video/') || embedTypes.includes('video') || embedTypes.includes('gif')) has.add('video');
  if (types('audio/') || embedTypes.includes('sound')) has.add('sound');
  if (embeds.length > 0) has.add('embed');
  if (hosts.size > 0) has.add('link');
  if (objects(body.sticker_items).length > 0) has.add('sticker');
  if (typeof body.poll === 'object' && body.poll !== null) has.add('poll');
  if (objects(body.message_snapshots).length > 0) has.add('snapshot');

  const reference = (
    typeof body.message_reference === 'object' && body.message_reference !== null
      ? body.message_reference
      : {}
  ) as Json;
  const isReply = body.type === 19 && reference.type !== 1;
  return {
    messageId: row.id,
    guildId: row.guildId,
    channelId: row.channelId,
    authorId: idOf(author) ?? '0',
    authorType,
    content,
    mentionIds: objects(body.mentions).flatMap((user) => idOf(user) ?? []),
    mentionRoleIds: Array.isArray(body.mention_roles)
      ? body.mention_roles.filter((id) => typeof id === 'string')
      : [],
    mentionEveryone: body.mention_everyone === true,
    repliedToUserId: isReply ? idOf((body.referenced_message as Json | undefined)?.author) : null,
    repliedToMessageId: isReply && typeof reference.message_id === 'string' ? reference.message_id : null,
    pinned: row.pinned,
    has: [...has],
    embedTypes,
    embedProviders: [
      ...new Set(embeds.flatMap((embed) => text((embed.provider as Json | undefined)?.name) || [])),
    ],
    linkHostnames: [...hosts],
    attachmentExtensions: [
      ...new Set(
        attachments.flatMap((attachment) => {
          const name = text(attachment.filename);
          const dot = name.lastIndexOf('.');
          return dot > 0 ? [name.slice(dot + 1).toLowerCase()] : [];
        }),
      ),
    ],
    attachmentFilenames: attachments.map((attachment) => text(attachment.filename)).filter(Boolean),
  };
}
