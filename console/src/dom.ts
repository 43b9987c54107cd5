/**
 * Builds DOM nodes. Every string child becomes a text node and every attribute is set
 * with setAttribute, so text from a bot (content, labels, embed fields, file names) is
 * never parsed as HTML: there is no innerHTML anywhere in the console.
 */
export type Child = Node | string | null | undefined | false | Child[];

export type Attrs = Record<string, string | number | boolean | null | undefined> & {
  on?: Partial<Record<string, (event: Event) => void>>;
};

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (name === 'on') continue;
      if (value === null || value === undefined || value === false) continue;
      if (/^on/i.test(name)) throw new Error(`no inline handlers (${name})`);
      element.setAttribute(name, value === true ? '' : String(value));
    }
    for (const [event, listener] of Object.entries(attrs.on ?? {})) {
      if (listener) element.addEventListener(event, listener);
    }
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

let fieldIds = 0;

/** A form's row: `control` named by its `label` (a page-unique id ties them together). */
export function formRow(
  label: string,
  control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
): HTMLElement {
  control.id ||= `row-field-${++fieldIds}`;
  return h('div', { class: 'form-row' }, h('label', { for: control.id }, label), control);
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * A URL a link may point at: only absolute http: and https: URLs (no `javascript:`,
 * `data:`, `vbscript:` or relative tricks). Answers the normalised URL or undefined.
 */
export function safeHttpUrl(url: unknown): string | undefined {
  if (typeof url !== 'string' || url.length > 2048) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return parsed.href;
  } catch {
    return undefined;
  }
}

/**
 * A URL an `<img>` may load: an http(s) URL of this very origin (the stack's attachments).
 * Anything else is shown as a link instead, so that a bot cannot make the console fetch
 * from elsewhere (and the policy's `img-src 'self'` would refuse it anyway).
 */
export function sameOriginMediaUrl(url: unknown): string | undefined {
  const safe = safeHttpUrl(url);
  if (!safe) return undefined;
  return new URL(safe).origin === window.location.origin ? safe : undefined;
}

/** An external link: opens in a new tab, without the opener or a referrer. */
export function externalLink(url: string, ...children: Child[]): HTMLAnchorElement {
  return h('a', { href: url, target: '_blank', rel: 'noopener noreferrer nofollow' }, ...children);
}
