import { call, describeError } from './api';
import { h, replaceChildren, type Child } from './dom';
import { FaultsView } from './faults';
import { PlayersView } from './players';

/*
 * The inspector beside the channel: the server's own account of an application — its
 * interactions' timeline (what the app received, how it was delivered, what it answered
 * or the exact reason it failed, follow-ups, timings), its REST calls (the request
 * log) and the faults injected into them, read from the admin API and refreshed while
 * shown; beside them, views the page owns (the members panel, the viewer's gateway
 * dispatches). Everything is text nodes.
 */

/** The longest JSON shown in one block; the rest is counted, not rendered. */
const MAX_JSON_CHARS = 20_000;
/** How often a shown view is read again. */
const REFRESH_MS = 1500;

export interface InspectorDeps {
  admin(): string;
  /** The applications to choose from: id and name (their bot users). */
  applications(): { id: string; name: string }[];
  /** A user's name, when known. */
  userName(id: string): string | undefined;
}

/** The views that read the admin API about the chosen application. */
type AppView = 'interactions' | 'requests' | 'faults' | 'players';
/** Those, or a view owned by the page (the members panel, the gateway log), by its key. */
type View = AppView | `extra:${string}`;

/** A view the page owns, shown under its own tab (no application picker). */
export interface ExtraView {
  key: string;
  label: string;
  element: HTMLElement;
}

const isAppView = (view: View): view is AppView => !view.startsWith('extra:');

const TYPE_NAMES: Record<number, string> = {
  1: 'ping',
  2: 'command',
  3: 'component',
  4: 'autocomplete',
  5: 'modal submit',
};

/** The title of a timeline entry: `/roll`, `button reroll:20`, `modal feedback`… */
export function interactionTitle(entry: any): string {
  const type = Number(entry?.type);
  const name = String(entry?.data?.name ?? '');
  const customId = String(entry?.data?.custom_id ?? '');
  if (type === 2) return `/${name}`;
  if (type === 4) return `autocomplete /${name}`;
  if (type === 3) return `component ${customId}`;
  if (type === 5) return `modal ${customId}`;
  return TYPE_NAMES[type] ?? `type ${type}`;
}

/** JSON as text, cut at MAX_JSON_CHARS (a bot's payload may be large). */
function jsonText(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? 'null';
  } catch {
    text = String(value);
  }
  return text.length > MAX_JSON_CHARS
    ? `${text.slice(0, MAX_JSON_CHARS)}\n… (${text.length - MAX_JSON_CHARS} more characters)`
    : text;
}

export function jsonBlock(summary: string, value: unknown, open = false): HTMLElement {
  return h(
    'details',
    { class: 'json', open },
    h('summary', null, summary),
    h('pre', { tabindex: 0 }, jsonText(value)),
  );
}

function ms(value: unknown): string {
  return typeof value === 'number' ? `${value} ms` : '—';
}

export class Inspector {
  readonly element: HTMLElement;
  private readonly appSelect = h('select', { id: 'inspector-app' });
  private readonly tabs = new Map<View, HTMLButtonElement>();
  private readonly body = h('div', { class: 'inspector-body' });
  private readonly appRow = h(
    'div',
    { class: 'inspector-app' },
    h('label', { for: 'inspector-app' }, 'Application'),
    this.appSelect,
  );
  private readonly extras = new Map<string, HTMLElement>();
  private readonly faults: FaultsView;
  private readonly players: PlayersView;
  private view: View;
  private applicationId = '';
  /** The interaction shown in detail, if any. */
  private selected: string | undefined;
  private lastText = '';
  private timer: ReturnType<typeof setInterval> | undefined;
  private reading = false;
  /** A forced read asked for while another was under way: done when that one ends. */
  private again = false;

  constructor(
    private readonly deps: InspectorDeps,
    /** The views the page owns (the members panel first, shown at the start; the gateway log). */
    extras: ExtraView[],
  ) {
    const tab = (label: string, view: View) => {
      const button = h('button', { type: 'button', class: 'tab', 'aria-pressed': 'false' }, label);
      button.addEventListener('click', () => this.show(view));
      this.tabs.set(view, button);
      return button;
    };
    for (const extra of extras) this.extras.set(extra.key, extra.element);
    const [first, ...rest] = extras;
    const buttons = [
      ...(first ? [tab(first.label, `extra:${first.key}`)] : []),
      tab('Interactions', 'interactions'),
      tab('Requests', 'requests'),
      tab('Faults', 'faults'),
      tab('Players', 'players'),
      ...rest.map((extra) => tab(extra.label, `extra:${extra.key}`)),
    ];
    this.faults = new FaultsView(
      () => this.applicationId,
      () => deps.admin(),
      () => this.refresh(true),
    );
    this.players = new PlayersView(() => deps.admin());
    this.appSelect.addEventListener('change', () => {
      this.applicationId = this.appSelect.value;
      this.selected = undefined;
      this.refresh(true);
    });
    this.element = h(
      'aside',
      { class: 'inspector', 'aria-label': 'Inspector' },
      h('h2', { class: 'visually-hidden' }, 'Inspector'),
      h('div', { class: 'tabs', role: 'group', 'aria-label': 'Inspector view' }, ...buttons),
      this.appRow,
      this.body,
    );
    this.view = first ? `extra:${first.key}` : 'interactions';
    this.show(this.view);
  }

  /** Lists the applications again (after one was created or the users were read). */
  refreshApplications(): void {
    const apps = this.deps.applications();
    if (!apps.some((a) => a.id === this.applicationId)) this.applicationId = apps[0]?.id ?? '';
    replaceChildren(
      this.appSelect,
      ...apps.map((a) => h('option', { value: a.id, selected: a.id === this.applicationId }, a.name)),
    );
  }

  /** Shows one view; the timeline, the log and the faults refresh while shown. */
  show(view: View): void {
    this.view = view;
    for (const [name, button] of this.tabs) button.setAttribute('aria-pressed', String(name === view));
    this.lastText = '';
    this.appRow.hidden = !isAppView(view);
    if (!isAppView(view)) {
      replaceChildren(this.body, this.extras.get(view.slice('extra:'.length)) ?? null);
      this.stop();
      return;
    }
    replaceChildren(this.body, h('p', { class: 'hint' }, 'Loading…'));
    this.refresh(true);
    this.timer ??= setInterval(() => {
      if (document.visibilityState === 'visible') this.refresh(false);
    }, REFRESH_MS);
  }

  /** Shows the interaction behind a message (its `interaction_metadata.id`). */
  inspect(applicationId: string, interactionId: string): void {
    this.applicationId = applicationId;
    this.refreshApplications();
    this.selected = interactionId;
    this.show('interactions');
  }

  /** Reads the shown view soon (after an interaction was sent), for this application. */
  follow(applicationId: string | undefined): void {
    if (applicationId && applicationId !== this.applicationId) {
      this.applicationId = applicationId;
      this.selected = undefined;
      this.refreshApplications();
    }
    if (isAppView(this.view)) this.refresh(true);
  }

  private stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private refresh(force: boolean): void {
    const view = this.view;
    if (!isAppView(view)) return;
    if (this.reading) {
      this.again ||= force;
      return;
    }
    if (!this.applicationId) {
      replaceChildren(this.body, h('p', { class: 'hint' }, 'No application to inspect.'));
      return;
    }
    const app = this.applicationId;
    // The players view reads as its players (their lobbies' messages), not the admin API.
    if (view === 'players') {
      void this.players
        .render(this.body, app)
        .catch((error: unknown) =>
          replaceChildren(this.body, h('p', { class: 'error', role: 'alert' }, String(error))),
        );
      return;
    }
    const selected = view === 'interactions' ? this.selected : undefined;
    const path =
      view === 'requests'
        ? `/admin/applications/${app}/requests?limit=100`
        : view === 'faults'
          ? `/admin/applications/${app}/faults`
          : selected
            ? `/admin/applications/${app}/interactions/${selected}`
            : `/admin/applications/${app}/interactions?limit=50`;
    this.reading = true;
    void call('GET', path, `Admin ${this.deps.admin()}`)
      .then((answer) => {
        // Another view, application or entry was chosen meanwhile: this answer is stale.
        if (
          this.view !== view ||
          this.applicationId !== app ||
          (view === 'interactions' && this.selected !== selected)
        )
          return;
        const text = `${answer.status} ${JSON.stringify(answer.body)}`;
        if (!force && text === this.lastText) return;
        this.lastText = text;
        if (answer.status !== 200) {
          replaceChildren(
            this.body,
            this.back(selected),
            h('p', { class: 'error', role: 'alert' }, describeError(answer.status, answer.body)),
          );
          return;
        }
        if (view === 'requests') this.renderRequests(answer.body);
        else if (view === 'faults') this.faults.render(this.body, answer.body);
        else if (selected) this.renderDetail(answer.body);
        else this.renderTimeline(answer.body);
      })
      .catch((error: unknown) =>
        replaceChildren(this.body, h('p', { class: 'error', role: 'alert' }, String(error))),
      )
      .finally(() => {
        this.reading = false;
        if (this.again) {
          this.again = false;
          this.refresh(true);
        }
      });
  }

  private back(selected: string | undefined): Child {
    if (!selected) return null;
    const button = h('button', { type: 'button', class: 'button secondary back' }, '← All interactions');
    button.addEventListener('click', () => {
      this.selected = undefined;
      this.refresh(true);
    });
    return button;
  }

  private renderTimeline(entries: any[]): void {
    if (!Array.isArray(entries) || entries.length === 0) {
      replaceChildren(this.body, h('p', { class: 'hint' }, 'No interactions yet.'));
      return;
    }
    replaceChildren(
      this.body,
      h(
        'ol',
        { class: 'timeline', 'aria-label': 'Interactions' },
        ...entries.map((entry) => {
          const state = String(entry?.state ?? '');
          const button = h(
            'button',
            { type: 'button', class: `timeline-entry ${state}` },
            h('span', { class: 'entry-title' }, interactionTitle(entry)),
            ' ',
            h('span', { class: `state ${state}` }, state),
            h(
              'span',
              { class: 'entry-meta' },
              `${this.deps.userName(String(entry?.user_id)) ?? String(entry?.user_id ?? '')} · ${ms(entry?.timings?.answered_ms)}`,
            ),
          );
          button.addEventListener('click', () => {
            this.selected = String(entry.id);
            this.refresh(true);
          });
          return h('li', null, button);
        }),
      ),
    );
  }

  private renderDetail(entry: any): void {
    const outcome = entry?.outcome;
    const delivery = entry?.delivery ?? {};
    const timings = entry?.timings ?? {};
    const row = (term: string, ...value: Child[]) => [h('dt', null, term), h('dd', null, ...value)];
    const expire = (window: 'initial' | 'token', label: string) => {
      const button = h('button', { type: 'button', class: 'button secondary' }, label);
      button.addEventListener('click', () => {
        void call(
          'POST',
          `/admin/applications/${this.applicationId}/interactions/${String(entry.id)}/expire`,
          `Admin ${this.deps.admin()}`,
          { window },
        ).then(() => this.refresh(true));
      });
      return button;
    };
    const deliveryText =
      delivery.kind === 'endpoint'
        ? `HTTP endpoint ${String(delivery.url ?? '')} → ${delivery.status === null || delivery.status === undefined ? 'no answer' : String(delivery.status)}`
        : delivery.kind === 'gateway'
          ? 'gateway (INTERACTION_CREATE to the bot)'
          : delivery.kind === 'activity'
            ? 'activity (launched by Discord, not sent to the app)'
            : String(delivery.kind ?? '—');
    const actions: any[] = [
      ...(Array.isArray(entry?.followups) ? entry.followups : []),
      ...(Array.isArray(entry?.edits) ? entry.edits : []),
    ];
    replaceChildren(
      this.body,
      this.back(this.selected),
      h(
        'section',
        { class: 'interaction-detail', 'aria-label': `Interaction ${interactionTitle(entry)}` },
        h(
          'h3',
          null,
          interactionTitle(entry),
          ' ',
          h('span', { class: `state ${String(entry?.state)}` }, String(entry?.state ?? '')),
        ),
        outcome?.kind === 'failed'
          ? h(
              'div',
              { class: 'failure' },
              h('strong', null, `Failed (reason ${String(outcome.reason_code ?? '?')}): `),
              h('span', { class: 'failure-reason' }, String(outcome.reason ?? '')),
            )
          : null,
        h(
          'dl',
          { class: 'facts' },
          row('Interaction', String(entry?.id ?? '')),
          row('Type', TYPE_NAMES[Number(entry?.type)] ?? String(entry?.type)),
          row('User', this.deps.userName(String(entry?.user_id)) ?? String(entry?.user_id ?? '')),
          row('Delivery', deliveryText),
          delivery.kind === 'endpoint'
            ? row(
                'Signature headers',
                (Array.isArray(delivery.signature_headers) ? delivery.signature_headers : []).join(', '),
              )
            : null,
          row('Received', String(timings.received_at ?? entry?.created_at ?? '—')),
          row('Delivered in', ms(timings.delivered_ms)),
          row('Answered in', ms(timings.answered_ms)),
          row(
            'Answer',
            outcome?.kind === 'answered'
              ? `callback type ${String(outcome.callback_type)}`
              : outcome?.kind === 'failed'
                ? 'none'
                : 'pending',
          ),
          row(
            'Windows',
            `initial ${String(entry?.windows?.initial ?? '?')}, token ${String(entry?.windows?.token ?? '?')}`,
          ),
        ),
        h(
          'div',
          { class: 'inspector-actions' },
          expire('initial', 'Expire the 3-second window'),
          expire('token', 'Expire the token'),
        ),
        Array.isArray(entry?.refusals) && entry.refusals.length > 0
          ? h(
              'div',
              null,
              h('h4', null, 'Refused callbacks'),
              ...entry.refusals.map((r: any) =>
                jsonBlock(`${String(r?.status)} at ${String(r?.at ?? '')}`, r?.body, true),
              ),
            )
          : null,
        actions.length > 0
          ? h(
              'div',
              null,
              h('h4', null, 'Follow-ups and edits'),
              h(
                'ol',
                { class: 'actions' },
                ...actions
                  .sort((a, b) => String(a?.at).localeCompare(String(b?.at)))
                  .map((a) =>
                    h(
                      'li',
                      null,
                      `${String(a?.kind)} message ${String(a?.message_id ?? '')}${a?.original ? ' (original)' : ''} at ${String(a?.at ?? '')}`,
                      a?.body !== undefined ? jsonBlock('body', a.body) : null,
                    ),
                  ),
              ),
            )
          : null,
        jsonBlock('Payload the app received', entry?.payload),
        outcome?.kind === 'answered' ? jsonBlock('What the app answered', outcome.body) : null,
        outcome?.kind === 'failed' ? jsonBlock('Failure', outcome) : null,
      ),
    );
  }

  private renderRequests(entries: any[]): void {
    if (!Array.isArray(entries) || entries.length === 0) {
      replaceChildren(this.body, h('p', { class: 'hint' }, 'No REST calls yet.'));
      return;
    }
    replaceChildren(
      this.body,
      h(
        'ol',
        { class: 'requests', 'aria-label': 'Requests' },
        ...entries.map((entry) => {
          const status = Number(entry?.status);
          return h(
            'li',
            { class: `request${status >= 400 ? ' failed' : ''}` },
            h(
              'span',
              { class: 'request-route' },
              String(entry?.route ?? `${String(entry?.method)} ${String(entry?.path)}`),
            ),
            ' ',
            h('span', { class: 'request-status' }, `→ ${String(entry?.status)}`),
            h(
              'span',
              { class: 'entry-meta' },
              `${ms(entry?.duration_ms)} · ${String(entry?.timestamp ?? '')}`,
            ),
            Array.isArray(entry?.warnings) && entry.warnings.length > 0
              ? h('span', { class: 'warning' }, entry.warnings.map(String).join('; '))
              : null,
            entry?.fault_id
              ? h('span', { class: 'warning' }, `answered by fault ${String(entry.fault_id)}`)
              : null,
            entry?.error ? jsonBlock('Error', entry.error) : null,
          );
        }),
      ),
    );
  }
}
