import { call, describeError } from './api';
import { formRow, h, replaceChildren } from './dom';

/*
 * The inspector's "Faults" view: the test control of the admin API
 * (`POST/GET/DELETE /admin/applications/{id}/faults`, docs/admin-api.md) as a form and a
 * list. A fault answers the application's next matching REST calls with the status asked
 * for; the "Requests" view marks each call a fault answered. The form sends what was typed
 * and shows the admin API's own validation errors: no browser-side rule in front of it.
 */

/** A number when the text is one, else the text as typed (the admin API says what is wrong). */
function numberOrText(text: string): number | string {
  const trimmed = text.trim();
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

export class FaultsView {
  private readonly form: HTMLFormElement;
  private readonly list = h('div', { class: 'fault-list' });
  private readonly problem = h('p', { class: 'error', role: 'alert' });
  private readonly done = h('p', { class: 'hint', role: 'status' });
  private readonly route: HTMLInputElement;
  private readonly status: HTMLInputElement;
  private readonly times: HTMLInputElement;
  private readonly delay: HTMLInputElement;
  private readonly body: HTMLTextAreaElement;

  constructor(
    private readonly applicationId: () => string,
    private readonly admin: () => string,
    /** Reads the list again (after a change). */
    private readonly reload: () => void,
  ) {
    this.route = h('input', {
      type: 'text',
      autocomplete: 'off',
      placeholder: 'POST /channels/*/messages',
      spellcheck: 'false',
    });
    this.status = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', value: '500' });
    this.times = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', value: '1' });
    this.delay = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', placeholder: '0' });
    this.body = h('textarea', { rows: 2, spellcheck: 'false', placeholder: '{"retry_after": 1}' });
    const inject = h('button', { type: 'submit', class: 'button primary' }, 'Inject fault');
    this.form = h(
      'form',
      { class: 'fault-form', 'aria-label': 'Inject a fault', novalidate: true },
      h(
        'p',
        { class: 'hint' },
        "Answer the app's next matching REST calls with an error (route: METHOD /path, * for any segment).",
      ),
      formRow('Route', this.route),
      formRow('Status', this.status),
      formRow('Times', this.times),
      formRow('Delay (ms)', this.delay),
      formRow('Body (JSON, optional)', this.body),
      this.problem,
      this.done,
      h('div', { class: 'modal-actions' }, inject),
    );
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.inject();
    });
  }

  /** Shows the form and the application's faults (`GET …/faults`), keeping what is typed. */
  render(holder: HTMLElement, faults: any[]): void {
    if (this.form.parentElement !== holder) replaceChildren(holder, this.form, this.list);
    const list = Array.isArray(faults) ? faults : [];
    const clear = h('button', { type: 'button', class: 'button secondary' }, 'Clear all faults');
    clear.addEventListener('click', () => void this.remove(''));
    replaceChildren(
      this.list,
      h('h3', null, 'Active faults'),
      list.length === 0
        ? h('p', { class: 'hint' }, 'No faults: every call is answered as usual.')
        : [
            h(
              'ul',
              { class: 'faults', 'aria-label': 'Faults' },
              ...list.map((fault) => {
                const route = String(fault?.route ?? '');
                const remove = h(
                  'button',
                  {
                    type: 'button',
                    class: 'button secondary small',
                    'aria-label': `Remove the fault on ${route}`,
                  },
                  'Remove',
                );
                remove.addEventListener('click', () => void this.remove(String(fault?.id)));
                const delay = Number(fault?.delay_ms) > 0 ? `, after ${String(fault.delay_ms)} ms` : '';
                return h(
                  'li',
                  { class: 'fault' },
                  h('span', { class: 'request-route' }, route),
                  ' ',
                  h('span', { class: 'request-status' }, `→ ${String(fault?.status)}`),
                  h(
                    'span',
                    { class: 'entry-meta' },
                    `fault ${String(fault?.id)}: ${String(fault?.remaining)} of ${String(fault?.times)} left${delay}`,
                  ),
                  remove,
                );
              }),
            ),
            clear,
          ],
    );
  }

  private async inject(): Promise<void> {
    replaceChildren(this.problem);
    replaceChildren(this.done);
    const app = this.applicationId();
    if (!app) return;
    const body: Record<string, unknown> = {
      route: this.route.value.trim(),
      status: numberOrText(this.status.value),
      times: numberOrText(this.times.value),
    };
    if (this.delay.value.trim() !== '') body.delay_ms = numberOrText(this.delay.value);
    if (this.body.value.trim() !== '') {
      // Not JSON: sent as the text it is, which the admin API refuses with its field error.
      try {
        body.body = JSON.parse(this.body.value);
      } catch {
        body.body = this.body.value;
      }
    }
    const answer = await call('POST', `/admin/applications/${app}/faults`, `Admin ${this.admin()}`, body);
    if (answer.status !== 201) {
      replaceChildren(this.problem, describeError(answer.status, answer.body));
      return;
    }
    replaceChildren(
      this.done,
      `Injected fault ${String(answer.body?.id)}: ${String(answer.body?.route)} → ${String(answer.body?.status)}.`,
    );
    this.reload();
  }

  /** Removes one fault, or all of them (`id` ''). */
  private async remove(id: string): Promise<void> {
    replaceChildren(this.problem);
    replaceChildren(this.done);
    const app = this.applicationId();
    if (!app) return;
    const answer = await call(
      'DELETE',
      `/admin/applications/${app}/faults${id ? `/${id}` : ''}`,
      `Admin ${this.admin()}`,
    );
    // A fault used up meanwhile is 404 / 0: it is gone either way.
    if (answer.status !== 204 && answer.status !== 404)
      replaceChildren(this.problem, describeError(answer.status, answer.body));
    else replaceChildren(this.done, id ? `Removed fault ${id}.` : 'Cleared every fault.');
    this.reload();
  }
}
