import { h, replaceChildren } from './dom';
import type { Dispatch } from './gateway';
import { jsonBlock } from './inspector';

/*
 * The inspector's "Gateway" view: the dispatches the viewer's own gateway session received,
 * newest first, live (each one added as it arrives, no polling). Each viewer's session
 * keeps its own list; the view shows the current viewer's. Everything is text nodes.
 */

/** The dispatches kept per viewer: the oldest go first. */
const KEEP = 200;

interface Entry {
  at: Date;
  dispatch: Dispatch;
}

/** A one-line hint of what a dispatch is about (the message's author and text, an id…). */
function hint({ t, d }: Dispatch): string {
  if ((t === 'MESSAGE_CREATE' || t === 'MESSAGE_UPDATE') && d) {
    const author = String(d.author?.global_name ?? d.author?.username ?? '');
    const content = typeof d.content === 'string' ? d.content : '';
    const text = content.length > 80 ? `${content.slice(0, 80)}…` : content;
    return author || text ? `${author}: ${text}` : String(d.id ?? '');
  }
  if (t === 'READY') return `session ${String(d?.session_id ?? '')}`;
  if (t === 'INTERACTION_FAILURE') return `${String(d?.reason_code ?? '')} ${String(d?.reason ?? '')}`;
  if (typeof d?.id === 'string') return d.id;
  if (typeof d?.guild_id === 'string') return `guild ${d.guild_id}`;
  return '';
}

export class GatewayLog {
  readonly element = h('section', { class: 'gateway-log', 'aria-label': 'Gateway' });
  private readonly entries = new Map<string, Entry[]>();
  private readonly heading = h('h3', null, 'Dispatches');
  private readonly list = h('ol', { class: 'requests dispatches', 'aria-label': 'Gateway dispatches' });
  private readonly empty = h('p', { class: 'hint' }, 'No dispatch yet.');
  private viewerId = '';

  constructor() {
    replaceChildren(this.element, this.heading, this.empty, this.list);
  }

  /** Shows the dispatches of this viewer's session. */
  showViewer(viewerId: string, name: string): void {
    this.viewerId = viewerId;
    replaceChildren(this.heading, `Dispatches to ${name}'s session`);
    const entries = this.entries.get(viewerId) ?? [];
    replaceChildren(this.list, ...entries.map((entry) => this.item(entry)).reverse());
    this.empty.hidden = entries.length > 0;
  }

  /** A dispatch a viewer's session received; shown at once if that viewer is the one shown. */
  record(viewerId: string, dispatch: Dispatch): void {
    const entries = this.entries.get(viewerId) ?? [];
    const entry = { at: new Date(), dispatch };
    entries.push(entry);
    if (entries.length > KEEP) entries.shift();
    this.entries.set(viewerId, entries);
    if (viewerId !== this.viewerId) return;
    this.list.prepend(this.item(entry));
    while (this.list.childElementCount > KEEP) this.list.lastElementChild?.remove();
    this.empty.hidden = true;
  }

  private item({ at, dispatch }: Entry): HTMLElement {
    const about = hint(dispatch);
    return h(
      'li',
      { class: 'request dispatch' },
      h('span', { class: 'request-route' }, dispatch.t),
      about ? h('span', { class: 'dispatch-hint' }, ` ${about}`) : null,
      h('span', { class: 'entry-meta' }, at.toISOString().slice(11, 23)),
      jsonBlock('Payload', dispatch.d),
    );
  }
}
