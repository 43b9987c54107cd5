import { describeError } from './api';
import { h, replaceChildren } from './dom';

const ACTION_ROW = 1;
const STRING_SELECT = 3;
const TEXT_INPUT = 4;
const TEXT_DISPLAY = 10;
const LABEL = 18;
const FILE_UPLOAD = 19;
const RADIO_GROUP = 21;
const CHECKBOX_GROUP = 22;
const CHECKBOX = 23;

/** What the submit answered: nothing when it went through, else the API's status and body. */
export type SubmitProblem = { status: number; body: any } | undefined;

interface Field {
  /** The answer component as a modal submit sends it, or undefined to leave it out. */
  answer(): Record<string, unknown>;
  /** How the answer is wrapped: in a Label (18) or a legacy action row (1). */
  inLabel: boolean;
  element: HTMLElement;
  error: HTMLElement;
  control: HTMLElement;
}

let ids = 0;
const uid = (prefix: string) => `${prefix}-${++ids}`;

/**
 * A modal as a `dialog` named by its title: each input named by its label (Label
 * components, or the legacy action row's text input), a "Submit" button that sends a
 * real modal submit, and the API's validation errors shown on the field they name.
 */
export function openModal(
  data: any,
  submit: (components: Record<string, unknown>[]) => Promise<SubmitProblem>,
): HTMLDialogElement {
  const titleId = uid('modal-title');
  const fields: (Field | HTMLElement)[] = [];
  for (const component of Array.isArray(data?.components) ? data.components : []) {
    const type = Number(component?.type);
    if (type === ACTION_ROW) {
      const inner = Array.isArray(component.components) ? component.components[0] : undefined;
      if (inner) fields.push(field(inner, String(inner.label ?? inner.custom_id ?? ''), undefined, false));
    } else if (type === LABEL && component.component) {
      fields.push(field(component.component, String(component.label ?? ''), component.description, true));
    } else if (type === TEXT_DISPLAY) {
      fields.push(h('p', { class: 'modal-text' }, String(component.content ?? '')));
    }
  }
  const problem = h('p', { class: 'error', role: 'alert' });
  const submitButton = h('button', { type: 'submit', class: 'button primary' }, 'Submit');
  const cancel = h('button', { type: 'button', class: 'button secondary' }, 'Cancel');
  const form = h(
    'form',
    // The app's rules are checked by ACS, as Discord's client defers to Discord: its errors show on the fields.
    { method: 'dialog', class: 'modal-form', novalidate: true },
    ...fields.map((f) => (f instanceof HTMLElement ? f : f.element)),
    problem,
    h('div', { class: 'modal-actions' }, cancel, submitButton),
  );
  const dialog = h(
    'dialog',
    { class: 'modal', 'aria-labelledby': titleId },
    h('h2', { id: titleId }, String(data?.title ?? 'Modal')),
    form,
  );
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const inputs = fields.filter((f): f is Field => !(f instanceof HTMLElement));
    for (const f of inputs) {
      replaceChildren(f.error);
      f.control.removeAttribute('aria-invalid');
    }
    replaceChildren(problem);
    const components = inputs.map((f) =>
      f.inLabel ? { type: LABEL, component: f.answer() } : { type: ACTION_ROW, components: [f.answer()] },
    );
    submitButton.disabled = true;
    void submit(components).then((refused) => {
      submitButton.disabled = false;
      if (!refused) {
        dialog.close();
        return;
      }
      // 50035 names the answer by its index in data.components: shown on that field.
      let placed = false;
      const walk = (node: any, path: string[]) => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node._errors)) {
          const at = path.indexOf('components');
          const index = at >= 0 ? Number(path[at + 1]) : NaN;
          const target = Number.isInteger(index) ? inputs[index] : undefined;
          const text = node._errors.map((e: any) => String(e?.message ?? e?.code)).join('; ');
          if (target) {
            target.control.setAttribute('aria-invalid', 'true');
            target.error.append(text);
            placed = true;
          }
        }
        for (const [key, value] of Object.entries(node)) if (key !== '_errors') walk(value, [...path, key]);
      };
      walk(refused.body?.errors, []);
      if (!placed) replaceChildren(problem, describeError(refused.status, refused.body));
    });
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

function field(component: any, label: string, description: unknown, inLabel: boolean): Field {
  const id = uid('modal-input');
  const errorId = uid('modal-error');
  const type = Number(component?.type);
  const customId = String(component?.custom_id ?? '');
  const required = component?.required !== false && type !== CHECKBOX;
  const error = h('span', { id: errorId, class: 'field-error' });
  let control: HTMLElement;
  let answer: () => Record<string, unknown>;
  if (type === TEXT_INPUT) {
    const attrs = {
      id,
      name: customId,
      required,
      minlength: component.min_length,
      maxlength: component.max_length,
      placeholder: component.placeholder,
      'aria-describedby': errorId,
    };
    const input =
      Number(component.style) === 2 ? h('textarea', attrs) : h('input', { ...attrs, type: 'text' });
    if (typeof component.value === 'string') input.value = component.value;
    control = input;
    answer = () => ({ type, custom_id: customId, value: input.value });
  } else if (type === CHECKBOX) {
    const box = h('input', {
      id,
      type: 'checkbox',
      checked: Boolean(component.default),
      'aria-describedby': errorId,
    });
    control = box;
    answer = () => ({ type, custom_id: customId, value: box.checked });
  } else if (type === RADIO_GROUP || type === CHECKBOX_GROUP) {
    const options: any[] = Array.isArray(component.options) ? component.options : [];
    const inputs = options.map((o) =>
      h('input', {
        type: type === RADIO_GROUP ? 'radio' : 'checkbox',
        name: id,
        value: String(o?.value ?? ''),
        checked: Boolean(o?.default),
      }),
    );
    control = h(
      'div',
      { id, role: type === RADIO_GROUP ? 'radiogroup' : 'group', 'aria-describedby': errorId },
      ...options.map((o, i) =>
        h(
          'label',
          { class: 'choice-option' },
          inputs[i] as HTMLInputElement,
          ` ${String(o?.label ?? o?.value ?? '')}`,
        ),
      ),
    );
    answer = () => {
      const chosen = inputs.filter((i) => i.checked).map((i) => i.value);
      return type === RADIO_GROUP
        ? { type, custom_id: customId, value: chosen[0] ?? null }
        : { type, custom_id: customId, values: chosen };
    };
  } else if (type === FILE_UPLOAD) {
    control = h('input', {
      id,
      type: 'file',
      disabled: true,
      title: 'file uploads: use `npx acs submit-modal --file` for now',
    });
    answer = () => ({ type, custom_id: customId, values: [] });
  } else {
    // Selects: string (3) from its options; user/role/mentionable/channel (5-8) take ids.
    const max = Math.max(1, Number(component?.max_values ?? 1));
    const options: any[] =
      type === STRING_SELECT && Array.isArray(component.options) ? component.options : [];
    if (type === STRING_SELECT) {
      const select = h(
        'select',
        { id, multiple: max > 1, required, 'aria-describedby': errorId },
        max > 1 ? null : h('option', { value: '' }, String(component.placeholder ?? '—')),
        ...options.map((o) =>
          h(
            'option',
            { value: String(o?.value ?? ''), selected: Boolean(o?.default) },
            String(o?.label ?? ''),
          ),
        ),
      );
      control = select;
      answer = () => ({
        type,
        custom_id: customId,
        values: [...select.selectedOptions].map((o) => o.value).filter((v) => v !== ''),
      });
    } else {
      const input = h('input', {
        id,
        type: 'text',
        placeholder: 'ids, separated by commas',
        'aria-describedby': errorId,
      });
      control = input;
      answer = () => ({
        type,
        custom_id: customId,
        values: input.value
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      });
    }
  }
  const labelId = uid('modal-label');
  if (control.tagName === 'DIV') control.setAttribute('aria-labelledby', labelId);
  const element = h(
    'div',
    { class: 'modal-field' },
    h(
      'label',
      { id: labelId, for: id },
      label,
      required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null,
    ),
    typeof description === 'string' ? h('span', { class: 'field-description' }, description) : null,
    control,
    error,
  );
  return { answer, inLabel, element, error, control };
}
