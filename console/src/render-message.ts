import { externalLink, h, safeHttpUrl, sameOriginMediaUrl, type Child } from './dom';
import { renderMarkdown, type MentionNames } from './markdown';

/** Message flags (D:resources/message.mdx §Message Flags). */
export const EPHEMERAL = 1 << 6;
export const LOADING = 1 << 7;
export const IS_COMPONENTS_V2 = 1 << 15;

/** What rendering a message needs from the page. */
export interface RenderContext {
  names: MentionNames;
  /** Users a user select offers (id, name). */
  users: { id: string; name: string }[];
  /** Channels a channel select offers. */
  channels: { id: string; name: string }[];
  /** Roles a role select offers. */
  roles: { id: string; name: string }[];
  /** A button of the message was clicked. */
  onButton(message: any, component: any): void;
  /** Values were chosen in a select of the message. */
  onSelect(message: any, component: any, values: string[]): void;
  /** The viewer opened the Apps menu of a message (MESSAGE commands) or of its author (USER commands). */
  onApps(anchor: HTMLElement, kind: 'message' | 'user', targetId: string): void;
  /** The viewer asked to see the interaction behind a message in the inspector. */
  onInspect(message: any): void;
}

export function authorName(user: any): string {
  return String(user?.global_name ?? user?.username ?? 'unknown');
}

/** One message as the chat client shows it, an `article` named by its author. */
export function renderMessage(message: any, ctx: RenderContext): HTMLElement {
  const flags = Number(message.flags ?? 0);
  const author = authorName(message.author);
  const article = h('article', {
    class: `message${flags & EPHEMERAL ? ' ephemeral' : ''}`,
    'data-message-id': message.id,
    'aria-label': `${author}${message.author?.bot ? ' (app)' : ''}`,
  });
  const parts: Child[] = [];
  const reference = message.referenced_message;
  if (reference) {
    parts.push(
      h(
        'div',
        { class: 'reply-line' },
        '↪ ',
        h('span', { class: 'reply-author' }, `@${authorName(reference.author)}`),
        ' ',
        h(
          'span',
          { class: 'reply-snippet' },
          String(reference.content ?? '').slice(0, 100) || 'Click to see attachment',
        ),
      ),
    );
  } else if (
    message.message_reference &&
    Number(message.message_reference.type ?? 0) === 0 &&
    message.type === 19
  ) {
    parts.push(h('div', { class: 'reply-line' }, '↪ Original message was deleted'));
  }
  const metadata = message.interaction_metadata;
  const legacy = message.interaction;
  if (metadata || legacy) {
    const user = metadata?.user ?? legacy?.user;
    const name = legacy?.name ?? metadata?.name;
    const type = Number(metadata?.type ?? legacy?.type ?? 2);
    const action =
      type === 2 && name
        ? `used /${name}`
        : type === 5
          ? 'submitted a form'
          : type === 3
            ? 'used a component'
            : 'used a command';
    parts.push(
      h('div', { class: 'interaction-header' }, h('span', { class: 'who' }, authorName(user)), ` ${action}`),
    );
  }
  const time = message.timestamp ? new Date(message.timestamp) : undefined;
  const authorButton = h(
    'button',
    { type: 'button', class: 'author', 'aria-haspopup': 'menu', title: 'Apps for this user' },
    author,
  );
  authorButton.addEventListener('click', () =>
    ctx.onApps(authorButton, 'user', String(message.author?.id ?? '')),
  );
  const appsButton = h(
    'button',
    { type: 'button', class: 'apps-button', 'aria-haspopup': 'menu', 'aria-label': 'Apps for this message' },
    '⋯',
  );
  appsButton.addEventListener('click', () => ctx.onApps(appsButton, 'message', String(message.id)));
  let inspectButton: HTMLElement | null = null;
  if (metadata?.id) {
    inspectButton = h(
      'button',
      { type: 'button', class: 'inspect-button', 'aria-label': 'Inspect interaction' },
      'Inspect',
    );
    inspectButton.addEventListener('click', () => ctx.onInspect(message));
  }
  parts.push(
    h(
      'header',
      { class: 'message-header' },
      authorButton,
      message.author?.bot ? h('span', { class: 'app-tag' }, 'APP') : null,
      time && !Number.isNaN(time.getTime())
        ? h(
            'time',
            { class: 'sent', datetime: time.toISOString(), title: time.toLocaleString() },
            time.toLocaleTimeString(),
          )
        : null,
      inspectButton,
      appsButton,
    ),
  );
  const body = h('div', { class: 'message-body' });
  if (flags & LOADING) {
    body.append(h('div', { class: 'thinking', role: 'status' }, `${author} is thinking…`));
  } else if (typeof message.content === 'string' && message.content !== '') {
    body.append(h('div', { class: 'content' }, ...renderMarkdown(message.content, ctx.names)));
  }
  if (message.edited_timestamp && !(flags & LOADING))
    body.append(h('span', { class: 'edited', title: String(message.edited_timestamp) }, ' (edited)'));
  for (const embed of asArray(message.embeds)) body.append(renderEmbed(embed, ctx));
  for (const attachment of asArray(message.attachments)) body.append(renderAttachment(attachment));
  const components = asArray(message.components);
  if (components.length > 0) {
    const holder = h('div', { class: flags & IS_COMPONENTS_V2 ? 'components v2' : 'components' });
    for (const component of components)
      holder.append(renderComponent(component, message, ctx, attachmentsOf(message)));
    body.append(holder);
  }
  for (const snapshot of asArray(message.message_snapshots)) {
    const forwarded = snapshot?.message ?? {};
    body.append(
      h(
        'div',
        { class: 'forward' },
        h('div', { class: 'forward-label' }, '↷ Forwarded'),
        typeof forwarded.content === 'string'
          ? h('div', { class: 'content' }, ...renderMarkdown(forwarded.content, ctx.names))
          : null,
        ...asArray(forwarded.embeds).map((e) => renderEmbed(e, ctx)),
        ...asArray(forwarded.attachments).map(renderAttachment),
      ),
    );
  }
  const reactions = asArray(message.reactions);
  if (reactions.length > 0) {
    body.append(
      h(
        'div',
        { class: 'reactions', role: 'group', 'aria-label': 'Reactions' },
        ...reactions.map((r) =>
          h(
            'span',
            { class: `reaction${r.me ? ' mine' : ''}` },
            emojiText(r.emoji),
            ' ',
            String(Number(r.count ?? 0)),
          ),
        ),
      ),
    );
  }
  parts.push(body);
  if (flags & EPHEMERAL) {
    parts.push(h('div', { class: 'ephemeral-note' }, 'Only you can see this'));
  }
  for (const part of parts) if (part) article.append(part as Node);
  return article;
}

function emojiText(emoji: any): string {
  if (!emoji) return '?';
  return emoji.id ? `:${String(emoji.name ?? 'emoji')}:` : String(emoji.name ?? '?');
}

function asArray(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

function colour(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffff)
    return undefined;
  return `#${value.toString(16).padStart(6, '0')}`;
}

/** The accent colour as a CSS custom property set through the CSSOM (no inline style attribute text). */
function setAccent(element: HTMLElement, value: unknown): void {
  const css = colour(value);
  if (css) element.style.setProperty('--accent', css);
}

function renderEmbed(embed: any, ctx: RenderContext): HTMLElement {
  const box = h('div', { class: 'embed', role: 'group', 'aria-label': 'Embed' });
  setAccent(box, embed?.color);
  if (embed?.author?.name) {
    const url = safeHttpUrl(embed.author.url);
    box.append(
      h(
        'div',
        { class: 'embed-author' },
        url ? externalLink(url, String(embed.author.name)) : String(embed.author.name),
      ),
    );
  }
  if (embed?.title) {
    const url = safeHttpUrl(embed.url);
    const title = renderMarkdown(String(embed.title), ctx.names, true);
    box.append(h('div', { class: 'embed-title' }, url ? externalLink(url, ...title) : title));
  }
  if (embed?.description)
    box.append(
      h('div', { class: 'embed-description' }, ...renderMarkdown(String(embed.description), ctx.names)),
    );
  const fields = asArray(embed?.fields);
  if (fields.length > 0) {
    box.append(
      h(
        'div',
        { class: 'embed-fields' },
        ...fields.map((f) =>
          h(
            'div',
            { class: f?.inline ? 'embed-field inline' : 'embed-field' },
            h(
              'div',
              { class: 'embed-field-name' },
              ...renderMarkdown(String(f?.name ?? ''), ctx.names, true),
            ),
            h('div', { class: 'embed-field-value' }, ...renderMarkdown(String(f?.value ?? ''), ctx.names)),
          ),
        ),
      ),
    );
  }
  for (const key of ['image', 'thumbnail'] as const) {
    const url = embed?.[key]?.url;
    if (url) box.append(renderMedia(url, key, `embed ${key}`));
  }
  if (embed?.footer?.text || embed?.timestamp) {
    const when = embed?.timestamp ? new Date(embed.timestamp) : undefined;
    box.append(
      h(
        'div',
        { class: 'embed-footer' },
        embed?.footer?.text ? String(embed.footer.text) : null,
        when && !Number.isNaN(when.getTime()) ? ` • ${when.toLocaleString()}` : null,
      ),
    );
  }
  return box;
}

/** An image of this origin inline; anything else a safe link (or, not http(s), its text). */
function renderMedia(url: unknown, cls: string, alt: string): HTMLElement {
  const inline = sameOriginMediaUrl(url);
  if (inline) return h('img', { class: cls, src: inline, alt, loading: 'lazy' });
  const link = safeHttpUrl(url);
  return h(
    'div',
    { class: `${cls} media-link` },
    link ? externalLink(link, `🖼 ${alt}`) : `🖼 ${alt} (unsafe URL not shown)`,
  );
}

function renderAttachment(attachment: any): HTMLElement {
  const name = String(attachment?.filename ?? 'file');
  const type = String(attachment?.content_type ?? '');
  const url = sameOriginMediaUrl(attachment?.url) ?? undefined;
  // Raster images only: an SVG (which could carry script) is a download like any file.
  if (url && /^image\/(png|jpe?g|gif|webp|avif)$/i.test(type)) {
    return h(
      'figure',
      { class: 'attachment image' },
      h('img', { src: url, alt: name, loading: 'lazy' }),
      h('figcaption', null, name),
    );
  }
  const size = Number(attachment?.size ?? 0);
  return h(
    'div',
    { class: 'attachment file' },
    '📄 ',
    url ? h('a', { href: url, download: name, rel: 'noopener noreferrer' }, name) : name,
    size > 0 ? h('span', { class: 'size' }, ` ${formatSize(size)}`) : null,
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `attachment://name` of a Components V2 media item, resolved to the message's attachment. */
function attachmentsOf(message: any): Map<string, any> {
  return new Map(asArray(message.attachments).map((a) => [String(a?.filename), a]));
}

function mediaUrl(media: any, files: Map<string, any>): string | undefined {
  const url = media?.url;
  if (typeof url === 'string' && url.startsWith('attachment://'))
    return files.get(url.slice('attachment://'.length))?.url;
  return url;
}

const BUTTON_STYLES: Record<number, string> = {
  1: 'primary',
  2: 'secondary',
  3: 'success',
  4: 'danger',
  5: 'link',
  6: 'premium',
};

/** One component, legacy or Components V2 (D:components/reference.mdx). */
export function renderComponent(
  component: any,
  message: any,
  ctx: RenderContext,
  files: Map<string, any>,
): HTMLElement {
  const type = Number(component?.type);
  switch (type) {
    case 1:
      return h(
        'div',
        { class: 'action-row', role: 'group' },
        ...asArray(component.components).map((c) => renderComponent(c, message, ctx, files)),
      );
    case 2:
      return renderButton(component, message, ctx);
    case 3:
    case 5:
    case 6:
    case 7:
    case 8:
      return renderSelect(component, message, ctx);
    case 9: {
      const accessory = component.accessory
        ? renderComponent(component.accessory, message, ctx, files)
        : null;
      return h(
        'div',
        { class: 'section' },
        h(
          'div',
          { class: 'section-text' },
          ...asArray(component.components).map((c) => renderComponent(c, message, ctx, files)),
        ),
        accessory ? h('div', { class: 'section-accessory' }, accessory) : null,
      );
    }
    case 10:
      return h(
        'div',
        { class: 'text-display' },
        ...renderMarkdown(String(component.content ?? ''), ctx.names),
      );
    case 11: {
      const thumbnail = renderMedia(
        mediaUrl(component.media, files),
        'thumbnail',
        String(component.description ?? 'thumbnail'),
      );
      if (component.spoiler) thumbnail.classList.add('spoiler-media');
      return thumbnail;
    }
    case 12:
      return h(
        'div',
        { class: 'media-gallery', role: 'group', 'aria-label': 'Media gallery' },
        ...asArray(component.items).map((item) =>
          renderMedia(mediaUrl(item?.media, files), 'gallery-item', String(item?.description ?? 'image')),
        ),
      );
    case 13: {
      const file = files.get(String(component.file?.url ?? '').replace(/^attachment:\/\//, ''));
      return renderAttachment(
        file ?? { filename: String(component.file?.url ?? 'file').replace(/^attachment:\/\//, '') },
      );
    }
    case 14:
      return h('hr', {
        class: `separator${component.divider === false ? ' invisible' : ''}${Number(component.spacing) === 2 ? ' large' : ''}`,
      });
    case 17: {
      const container = h(
        'div',
        {
          class: `container${component.spoiler ? ' spoiler-container' : ''}`,
          role: 'group',
          'aria-label': 'Container',
        },
        ...asArray(component.components).map((c) => renderComponent(c, message, ctx, files)),
      );
      if (colour(component.accent_color)) container.classList.add('accented');
      setAccent(container, component.accent_color);
      return container;
    }
    default:
      return h('div', { class: 'unknown-component' }, `(component type ${String(component?.type)})`);
  }
}

function renderButton(component: any, message: any, ctx: RenderContext): HTMLElement {
  const style = Number(component.style ?? 2);
  const label = String(component.label ?? '');
  const emoji = component.emoji ? emojiText(component.emoji) : '';
  const text = [emoji, label].filter(Boolean).join(' ') || '\u00a0';
  const cls = `button ${BUTTON_STYLES[style] ?? 'secondary'}`;
  if (style === 5) {
    const url = safeHttpUrl(component.url);
    // Not http(s) (a `javascript:` URL…): a disabled button, never a link.
    if (!url || component.disabled)
      return h(
        'button',
        { type: 'button', class: cls, disabled: true, title: 'unsafe or disabled link' },
        text,
      );
    return externalLink(url, text, ' ↗');
  }
  if (style === 6)
    return h(
      'button',
      { type: 'button', class: cls, disabled: Boolean(component.disabled) },
      `🛒 ${label || 'Purchase'}`,
    );
  const button = h(
    'button',
    {
      type: 'button',
      class: cls,
      disabled: Boolean(component.disabled),
      'data-custom-id': component.custom_id,
    },
    text,
  );
  button.addEventListener('click', () => ctx.onButton(message, component));
  return button;
}

/** A select menu as a native `<select>` named by its placeholder. */
function renderSelect(component: any, message: any, ctx: RenderContext): HTMLElement {
  const type = Number(component.type);
  const max = Math.max(1, Number(component.max_values ?? 1));
  const placeholder = String(
    component.placeholder ??
      (type === 3
        ? 'Make a selection'
        : ['', '', '', '', '', 'Select a user', 'Select a role', 'Select a user or role', 'Select a channel'][
            type
          ]),
  );
  let options: { value: string; label: string; description?: string; default?: boolean }[];
  if (type === 3) {
    options = asArray(component.options).map((o) => ({
      value: String(o?.value ?? ''),
      label: [o?.emoji ? emojiText(o.emoji) : '', String(o?.label ?? '')].filter(Boolean).join(' '),
      description: o?.description ? String(o.description) : undefined,
      default: Boolean(o?.default),
    }));
  } else if (type === 5) options = ctx.users.map((u) => ({ value: u.id, label: `@${u.name}` }));
  else if (type === 6) options = ctx.roles.map((r) => ({ value: r.id, label: `@${r.name}` }));
  else if (type === 7)
    options = [
      ...ctx.users.map((u) => ({ value: u.id, label: `@${u.name}` })),
      ...ctx.roles.map((r) => ({ value: r.id, label: `@${r.name}` })),
    ];
  else options = ctx.channels.map((c) => ({ value: c.id, label: `#${c.name}` }));
  const select = h(
    'select',
    {
      class: 'select',
      'aria-label': placeholder,
      disabled: Boolean(component.disabled),
      multiple: max > 1,
      'data-custom-id': component.custom_id,
    },
    max > 1
      ? null
      : h('option', { value: '', disabled: true, selected: !options.some((o) => o.default) }, placeholder),
    ...options.map((o) =>
      h(
        'option',
        { value: o.value, selected: o.default, title: o.description },
        o.description ? `${o.label} — ${o.description}` : o.label,
      ),
    ),
  );
  const choose = (): void => {
    const values = [...select.selectedOptions].map((o) => o.value).filter((v) => v !== '');
    if (values.length > 0) ctx.onSelect(message, component, values);
  };
  if (max > 1) {
    const apply = h(
      'button',
      { type: 'button', class: 'button secondary', disabled: Boolean(component.disabled) },
      'Apply',
    );
    apply.addEventListener('click', choose);
    return h('div', { class: 'select-multi' }, select, apply);
  }
  select.addEventListener('change', choose);
  return select;
}
