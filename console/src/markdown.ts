import { externalLink, h, safeHttpUrl, type Child } from './dom';

/** How mentions read: names of users, channels and roles the viewer knows, else a placeholder. */
export interface MentionNames {
  user(id: string): string | undefined;
  channel(id: string): string | undefined;
  role(id: string): string | undefined;
}

/**
 * Discord markdown rendered to DOM nodes, as the chat client shows it: code blocks,
 * quotes (`>` and `>>>`), headers, subtext (`-#`), lists; inline bold, italic,
 * underline, strike, code, spoilers, masked and bare links (http and https only; any
 * other scheme stays text), mentions, custom emoji and timestamps (`<t:…:R>`). Text is
 * only ever a text node: HTML in a message is shown as typed.
 */
export function renderMarkdown(source: string, names: MentionNames, inline = false): Node[] {
  return inline ? parseInline(source, names, 0) : parseBlocks(source, names);
}

const MAX_DEPTH = 12;

function parseBlocks(source: string, names: MentionNames): Node[] {
  const out: Node[] = [];
  const lines = source.split('\n');
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    out.push(h('div', { class: 'md-line' }, ...parseInline(paragraph.join('\n'), names, 0)));
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fence = /^```([\w+-]*)\s*(.*)$/.exec(line);
    if (fence) {
      // A code block runs to the next ``` (or the end); its text is shown as is.
      const rest = lines.slice(i);
      const joined = rest.join('\n');
      const close = joined.indexOf('```', 3);
      if (close >= 0) {
        flush();
        let body = joined.slice(3, close);
        const language = /^([\w+-]+)\n/.exec(body);
        if (language) body = body.slice(language[0].length);
        else if (body.startsWith('\n')) body = body.slice(1);
        out.push(
          h(
            'pre',
            { class: 'md-codeblock', 'data-language': language?.[1] },
            h('code', null, body.replace(/\n$/, '')),
          ),
        );
        const consumed = joined.slice(0, close + 3).split('\n').length;
        const after = joined.slice(close + 3);
        i += consumed - 1;
        if (after.trim() !== '' && !after.startsWith('\n')) paragraph.push(after.split('\n')[0] as string);
        continue;
      }
    }
    if (line.startsWith('>>> ')) {
      flush();
      const quoted = [line.slice(4), ...lines.slice(i + 1)].join('\n');
      out.push(h('blockquote', { class: 'md-quote' }, ...parseBlocks(quoted, names)));
      break;
    }
    if (/^> /.test(line) || line === '>') {
      flush();
      const quoted: string[] = [];
      while (i < lines.length && /^>( |$)/.test(lines[i] as string))
        quoted.push((lines[i++] as string).slice(2));
      i--;
      out.push(h('blockquote', { class: 'md-quote' }, ...parseBlocks(quoted.join('\n'), names)));
      continue;
    }
    const header = /^(#{1,3}) (.+)$/.exec(line);
    if (header) {
      flush();
      const tag = (['h3', 'h4', 'h5'] as const)[(header[1] as string).length - 1] ?? 'h5';
      out.push(h(tag, { class: 'md-header' }, ...parseInline(header[2] as string, names, 0)));
      continue;
    }
    const subtext = /^-# (.+)$/.exec(line);
    if (subtext) {
      flush();
      out.push(h('small', { class: 'md-subtext' }, ...parseInline(subtext[1] as string, names, 0)));
      continue;
    }
    const item = /^\s*[-*] (.+)$/.exec(line);
    if (item) {
      flush();
      const items: string[] = [];
      while (i < lines.length) {
        const m = /^\s*[-*] (.+)$/.exec(lines[i] as string);
        if (!m) break;
        items.push(m[1] as string);
        i++;
      }
      i--;
      out.push(
        h('ul', { class: 'md-list' }, ...items.map((text) => h('li', null, ...parseInline(text, names, 0)))),
      );
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return out;
}

type InlineRule = {
  re: RegExp;
  render: (m: RegExpExecArray, names: MentionNames, depth: number) => Child;
};

const wrap =
  (tag: 'strong' | 'em' | 'u' | 's', cls: string) =>
  (m: RegExpExecArray, names: MentionNames, depth: number): Child =>
    h(tag, { class: cls }, ...parseInline(m[1] as string, names, depth + 1));

const TIMESTAMP_STYLES = new Set(['t', 'T', 'd', 'D', 'f', 'F', 'R']);

/** Rules tried at each position, first match wins (the order mirrors the chat client's). */
const RULES: InlineRule[] = [
  { re: /\\([^A-Za-z0-9\s])/y, render: (m) => m[1] as string },
  {
    re: /(`+)([\s\S]*?[^`])\1(?!`)/y,
    render: (m) => h('code', { class: 'md-code' }, (m[2] as string).trim() || (m[2] as string)),
  },
  {
    re: /\[([^\]\n]{1,256})\]\(\s*<?([^\s)>]+)>?\s*\)/y,
    render: (m, names, depth) => {
      const url = safeHttpUrl(m[2]);
      const label = parseInline(m[1] as string, names, depth + 1);
      // Not http(s): the whole thing stays text, nothing to click.
      return url ? externalLink(url, ...label) : (m[0] as string);
    },
  },
  {
    re: /<?(https?:\/\/[^\s<>]+[^\s<>.,:;"')\]])>?/y,
    render: (m) => {
      const url = safeHttpUrl(m[1]);
      return url ? externalLink(url, m[1] as string) : (m[0] as string);
    },
  },
  {
    re: /<@!?(\d{1,20})>/y,
    render: (m, names) =>
      h(
        'span',
        { class: 'mention', 'data-user-id': m[1] },
        `@${names.user(m[1] as string) ?? 'unknown-user'}`,
      ),
  },
  {
    re: /<@&(\d{1,20})>/y,
    render: (m, names) => h('span', { class: 'mention' }, `@${names.role(m[1] as string) ?? 'unknown-role'}`),
  },
  {
    re: /<#(\d{1,20})>/y,
    render: (m, names) =>
      h('span', { class: 'mention' }, `#${names.channel(m[1] as string) ?? 'unknown-channel'}`),
  },
  { re: /@(everyone|here)\b/y, render: (m) => h('span', { class: 'mention' }, `@${m[1]}`) },
  {
    re: /<a?:(\w{2,32}):(\d{1,20})>/y,
    render: (m) => h('span', { class: 'emoji', title: `:${m[1]}:` }, `:${m[1]}:`),
  },
  {
    re: /<t:(-?\d{1,13})(?::([tTdDfFR]))?>/y,
    render: (m) => {
      const style = m[2] && TIMESTAMP_STYLES.has(m[2]) ? m[2] : 'f';
      const date = new Date(Number(m[1]) * 1000);
      if (Number.isNaN(date.getTime())) return m[0] as string;
      return h(
        'time',
        { class: 'md-timestamp', datetime: date.toISOString(), title: date.toLocaleString() },
        formatTimestamp(date, style),
      );
    },
  },
  {
    re: /\|\|([\s\S]+?)\|\|/y,
    render: (m, names, depth) => spoiler(parseInline(m[1] as string, names, depth + 1)),
  },
  {
    re: /\*\*\*([\s\S]+?)\*\*\*(?!\*)/y,
    render: (m, names, depth) =>
      h('strong', null, h('em', null, ...parseInline(m[1] as string, names, depth + 1))),
  },
  { re: /\*\*([\s\S]+?)\*\*(?!\*)/y, render: wrap('strong', 'md-bold') },
  { re: /__([\s\S]+?)__(?!_)/y, render: wrap('u', 'md-underline') },
  { re: /~~([\s\S]+?)~~/y, render: wrap('s', 'md-strike') },
  { re: /\*(?!\s)([\s\S]+?)\*(?!\*)/y, render: wrap('em', 'md-italic') },
  { re: /\b_([\s\S]+?)_\b/y, render: wrap('em', 'md-italic') },
];

function parseInline(source: string, names: MentionNames, depth: number): Node[] {
  if (depth > MAX_DEPTH) return [document.createTextNode(source)];
  const out: Node[] = [];
  let text = '';
  const flushText = () => {
    if (text) out.push(document.createTextNode(text));
    text = '';
  };
  let i = 0;
  outer: while (i < source.length) {
    for (const rule of RULES) {
      rule.re.lastIndex = i;
      const m = rule.re.exec(source);
      if (m && m[0].length > 0) {
        flushText();
        const rendered = rule.render(m, names, depth);
        if (typeof rendered === 'string') out.push(document.createTextNode(rendered));
        else if (rendered instanceof Node) out.push(rendered);
        i += m[0].length;
        continue outer;
      }
    }
    text += source[i];
    i++;
  }
  flushText();
  return out;
}

/** A spoiler: hidden until clicked (a real button, so the keyboard reveals it too). */
function spoiler(children: Node[]): HTMLElement {
  const button = h(
    'button',
    { type: 'button', class: 'md-spoiler', 'aria-label': 'Spoiler: reveal', 'aria-pressed': 'false' },
    ...children,
  );
  button.addEventListener('click', () => {
    button.classList.add('revealed');
    button.setAttribute('aria-pressed', 'true');
    button.removeAttribute('aria-label');
  });
  return button;
}

/** `<t:…:style>` as the chat client shows it in the viewer's locale. */
export function formatTimestamp(date: Date, style: string): string {
  switch (style) {
    case 't':
      return date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
    case 'T':
      return date.toLocaleTimeString();
    case 'd':
      return date.toLocaleDateString();
    case 'D':
      return date.toLocaleDateString(undefined, { dateStyle: 'long' });
    case 'F':
      return date.toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'short' });
    case 'R':
      return relativeTime(date);
    default:
      return date.toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' });
  }
}

function relativeTime(date: Date): string {
  const seconds = Math.round((date.getTime() - Date.now()) / 1000);
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(seconds, 'second');
}
