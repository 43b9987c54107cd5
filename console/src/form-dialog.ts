import { formRow, h, replaceChildren, type Child } from './dom';

/** One field of a form dialog: a text input, a select or a checkbox, named by its label. */
export type FormField =
  | { kind: 'text'; name: string; label: string; value?: string; maxlength?: number; required?: boolean }
  | { kind: 'select'; name: string; label: string; options: { value: string; label: string }[] }
  | { kind: 'checkbox'; name: string; label: string; checked?: boolean };

/** What a form dialog submitted: each field's value ('true'/'' for a checkbox). */
export type FormValues = Record<string, string>;

let ids = 0;

/**
 * A form as a modal `dialog` named by its title, its inputs named by their labels, and a
 * submit button. `submit` answers the problem to show (the API's error, as text) or
 * nothing, which closes the dialog. Everything is text nodes: names from the world are
 * never parsed as markup.
 */
export function formDialog(options: {
  title: string;
  intro?: Child;
  fields: FormField[];
  submitLabel: string;
  submit(values: FormValues): Promise<string | undefined>;
}): HTMLDialogElement {
  const titleId = `form-title-${++ids}`;
  const controls = new Map<string, HTMLInputElement | HTMLSelectElement>();
  const rows = options.fields.map((field) => {
    const id = `form-field-${++ids}`;
    if (field.kind === 'checkbox') {
      const box = h('input', { id, type: 'checkbox', checked: field.checked ?? false });
      controls.set(field.name, box);
      return h('div', { class: 'form-check' }, box, h('label', { for: id }, field.label));
    }
    const control =
      field.kind === 'text'
        ? h('input', {
            id,
            type: 'text',
            autocomplete: 'off',
            value: field.value ?? '',
            maxlength: field.maxlength,
            required: field.required ?? false,
          })
        : h('select', { id }, ...field.options.map((o) => h('option', { value: o.value }, o.label)));
    controls.set(field.name, control);
    return formRow(field.label, control);
  });
  const problem = h('p', { class: 'error', role: 'alert' });
  const submitButton = h('button', { type: 'submit', class: 'button primary' }, options.submitLabel);
  const cancel = h('button', { type: 'button', class: 'button secondary' }, 'Cancel');
  const form = h(
    'form',
    { method: 'dialog', class: 'modal-form', novalidate: true },
    options.intro ?? null,
    ...rows,
    problem,
    h('div', { class: 'modal-actions' }, cancel, submitButton),
  );
  const dialog = h(
    'dialog',
    { class: 'modal', 'aria-labelledby': titleId },
    h('h2', { id: titleId }, options.title),
    form,
  );
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values: FormValues = {};
    for (const [name, control] of controls)
      values[name] =
        control instanceof HTMLInputElement && control.type === 'checkbox'
          ? control.checked
            ? 'true'
            : ''
          : control.value;
    replaceChildren(problem);
    submitButton.disabled = true;
    void options
      .submit(values)
      .catch((error: unknown) => (error instanceof Error ? error.message : String(error)))
      .then((refused) => {
        submitButton.disabled = false;
        if (refused === undefined) dialog.close();
        else replaceChildren(problem, h('pre', null, refused));
      });
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
