import { h, replaceChildren } from './dom';

/** A command of the application command index (as the command picker lists them). */
export interface ListedCommand {
  id: string;
  name: string;
  type?: number;
  version: string;
  application_id: string;
  guild_id?: string;
  description?: string;
  options?: CommandOption[];
}

export interface CommandOption {
  name: string;
  type: number;
  description?: string;
  required?: boolean;
  autocomplete?: boolean;
  choices?: { name: string; value: string | number }[];
  options?: CommandOption[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
}

/** Option types (D:interactions/application-commands.mdx §Application Command Option Type). */
const SUB_COMMAND = 1;
const SUB_COMMAND_GROUP = 2;
const INTEGER = 4;
const BOOLEAN = 5;
const USER = 6;
const CHANNEL = 7;
const ROLE = 8;
const MENTIONABLE = 9;
const NUMBER = 10;
const ATTACHMENT = 11;

export interface ComposerDeps {
  channelName: string;
  users: () => { id: string; name: string; bot: boolean }[];
  channels: () => any[];
  loadCommands: () => Promise<ListedCommand[]>;
  /** Sends a plain message with the files attached (none: a text message). */
  sendMessage: (content: string, files: File[]) => Promise<void>;
  invoke: (command: ListedCommand, data: Record<string, unknown>) => void;
  autocomplete: (
    command: ListedCommand,
    data: Record<string, unknown>,
  ) => Promise<{ name: string; value: string | number }[]>;
}

/** A leaf's path: the subcommand group and subcommand names before its options. */
interface Leaf {
  path: CommandOption[];
  options: CommandOption[];
}

let ids = 0;
const uid = (prefix: string) => `${prefix}-${++ids}`;

/**
 * The composer: a textbox named `Message #<channel>` that sends plain messages and, after
 * `/`, opens a listbox of the commands this viewer may use here (options named
 * `/<name>`, the description after it); a chosen command becomes a form of its options
 * (typed inputs, choices, live autocomplete) whose "Send" invokes it.
 */
export class CommandComposer {
  readonly element: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly listbox: HTMLElement;
  private readonly form: HTMLElement;
  private readonly files: HTMLInputElement;
  private shown: ListedCommand[] = [];
  private active = -1;

  constructor(private readonly deps: ComposerDeps) {
    const listId = uid('commands');
    this.input = h('input', {
      type: 'text',
      class: 'composer-input',
      'aria-label': `Message #${deps.channelName}`,
      placeholder: `Message #${deps.channelName}`,
      autocomplete: 'off',
      'aria-controls': listId,
      maxlength: 2000,
    });
    this.listbox = h('ul', {
      id: listId,
      role: 'listbox',
      class: 'command-list',
      'aria-label': 'Commands',
      hidden: true,
    });
    this.form = h('div', { class: 'command-form', hidden: true });
    this.files = h('input', {
      type: 'file',
      multiple: true,
      class: 'composer-files',
      'aria-label': 'Attach files',
    });
    this.element = h(
      'div',
      { class: 'composer' },
      this.listbox,
      this.form,
      h('div', { class: 'composer-row' }, this.files, this.input),
    );
    this.input.addEventListener('input', () => void this.onInput());
    this.input.addEventListener('keydown', (event) => this.onKey(event));
  }

  private async onInput(): Promise<void> {
    const value = this.input.value;
    if (!value.startsWith('/')) {
      this.closeList();
      return;
    }
    const typed = value.slice(1).split(/\s/)[0]?.toLowerCase() ?? '';
    const commands = await this.deps.loadCommands();
    if (!this.input.value.startsWith('/')) return;
    this.shown = commands.filter((c) => (c.type ?? 1) === 1 && c.name.startsWith(typed));
    this.active = this.shown.length > 0 ? 0 : -1;
    this.renderList();
  }

  private renderList(): void {
    this.listbox.hidden = false;
    if (this.shown.length === 0) {
      replaceChildren(this.listbox, h('li', { class: 'hint', role: 'presentation' }, 'No commands match'));
      this.input.removeAttribute('aria-activedescendant');
      return;
    }
    replaceChildren(
      this.listbox,
      ...this.shown.map((command, index) => {
        const id = `${this.listbox.id}-${index}`;
        const option = h(
          'li',
          {
            id,
            role: 'option',
            class: 'command-option',
            'aria-selected': index === this.active ? 'true' : 'false',
          },
          h('span', { class: 'command-name' }, `/${command.name}`),
          command.description ? h('span', { class: 'command-description' }, ` ${command.description}`) : null,
        );
        option.addEventListener('mousedown', (event) => event.preventDefault());
        option.addEventListener('click', () => this.choose(command));
        return option;
      }),
    );
    if (this.active >= 0)
      this.input.setAttribute('aria-activedescendant', `${this.listbox.id}-${this.active}`);
  }

  private closeList(): void {
    this.listbox.hidden = true;
    this.shown = [];
    this.active = -1;
    this.input.removeAttribute('aria-activedescendant');
  }

  private onKey(event: KeyboardEvent): void {
    const open = !this.listbox.hidden && this.shown.length > 0;
    if (open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.active = (this.active + step + this.shown.length) % this.shown.length;
      this.renderList();
      return;
    }
    if (event.key === 'Escape') {
      this.closeList();
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey) return;
    event.preventDefault();
    if (open && this.active >= 0) {
      this.choose(this.shown[this.active] as ListedCommand);
      return;
    }
    const content = this.input.value.trim();
    const files = [...(this.files.files ?? [])];
    if ((content === '' && files.length === 0) || content.startsWith('/')) return;
    this.input.value = '';
    this.files.value = '';
    void this.deps.sendMessage(content, files);
  }

  /** Shows the command's options as a form; "Send" invokes it. */
  private choose(command: ListedCommand): void {
    this.closeList();
    this.input.value = '';
    const leaves = leavesOf(command);
    const formId = uid('command-form');
    const fields = h('div', { class: 'command-fields' });
    let leaf = leaves[0] as Leaf;
    let controls: OptionControl[] = [];
    const renderFields = () => {
      controls = leaf.options.map((option) =>
        this.control(
          command,
          option,
          () => leaf,
          () => controls,
        ),
      );
      replaceChildren(fields, ...controls.map((c) => c.element));
    };
    const header: Node[] = [h('span', { class: 'command-chip' }, `/${command.name}`)];
    if (leaves.length > 1 || leaf.path.length > 0) {
      const selectId = uid('subcommand');
      const select = h(
        'select',
        { id: selectId },
        ...leaves.map((l, index) =>
          h('option', { value: String(index) }, l.path.map((p) => p.name).join(' ')),
        ),
      );
      select.addEventListener('change', () => {
        leaf = leaves[Number(select.value)] as Leaf;
        renderFields();
      });
      header.push(h('label', { for: selectId }, 'Subcommand'), select);
    }
    renderFields();
    const send = h('button', { type: 'submit', class: 'button primary' }, 'Send');
    const cancel = h('button', { type: 'button', class: 'button secondary' }, 'Cancel');
    const problem = h('p', { class: 'error', role: 'alert' });
    const form = h(
      'form',
      { id: formId, class: 'command', 'aria-label': `/${command.name}` },
      h('div', { class: 'command-head' }, ...header),
      fields,
      problem,
      h('div', { class: 'command-actions' }, send, cancel),
    );
    cancel.addEventListener('click', () => this.closeForm());
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const missing = controls.filter((c) => c.option.required && c.read() === undefined);
      for (const c of controls) c.setInvalid(missing.includes(c));
      if (missing.length > 0) {
        replaceChildren(problem, `Required: ${missing.map((c) => c.option.name).join(', ')}`);
        return;
      }
      this.deps.invoke(command, invocationData(command, leaf, controls, undefined));
      this.closeForm();
    });
    replaceChildren(this.form, form);
    this.form.hidden = false;
    (fields.querySelector('input, select') as HTMLElement | null)?.focus();
  }

  private closeForm(): void {
    replaceChildren(this.form);
    this.form.hidden = true;
    this.input.focus();
  }

  private control(
    command: ListedCommand,
    option: CommandOption,
    leaf: () => Leaf,
    all: () => OptionControl[],
  ): OptionControl {
    const id = uid(`option-${option.name}`);
    const label = h(
      'label',
      { for: id },
      option.name,
      option.required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null,
    );
    const hint = option.description ? h('span', { class: 'option-description' }, option.description) : null;
    let read: () => unknown;
    let field: HTMLElement;
    let extra: HTMLElement | null = null;
    const pick = (items: { value: string; label: string }[]) =>
      h(
        'select',
        { id },
        h('option', { value: '' }, '—'),
        ...items.map((i) => h('option', { value: i.value }, i.label)),
      );
    if (option.choices && option.choices.length > 0) {
      const select = pick(option.choices.map((c) => ({ value: JSON.stringify(c.value), label: c.name })));
      read = () => (select.value === '' ? undefined : JSON.parse(select.value));
      field = select;
    } else if (option.type === BOOLEAN) {
      const select = pick([
        { value: 'true', label: 'True' },
        { value: 'false', label: 'False' },
      ]);
      read = () => (select.value === '' ? undefined : select.value === 'true');
      field = select;
    } else if (option.type === USER || option.type === MENTIONABLE) {
      const select = pick(this.deps.users().map((u) => ({ value: u.id, label: `@${u.name}` })));
      read = () => select.value || undefined;
      field = select;
    } else if (option.type === CHANNEL) {
      const select = pick(
        this.deps.channels().map((c) => ({ value: String(c.id), label: `#${String(c.name)}` })),
      );
      read = () => select.value || undefined;
      field = select;
    } else if (option.type === ATTACHMENT) {
      field = h('input', { id, type: 'text', disabled: true, value: 'files: not from the console yet' });
      read = () => undefined;
    } else {
      const numeric = option.type === INTEGER || option.type === NUMBER;
      const input = h('input', {
        id,
        type: numeric && !option.autocomplete ? 'number' : 'text',
        step: option.type === INTEGER ? 1 : 'any',
        min: option.min_value,
        max: option.max_value,
        minlength: option.min_length,
        maxlength: option.max_length,
        autocomplete: 'off',
      });
      let chosen: { text: string; value: string | number } | undefined;
      const convert = (text: string): unknown => {
        if (text === '') return undefined;
        if (option.type === INTEGER) return Number.parseInt(text, 10);
        if (option.type === NUMBER) return Number.parseFloat(text);
        return text;
      };
      read = () =>
        chosen && chosen.text === input.value
          ? chosen.value
          : convert(input.value.trim() === '' ? '' : input.value);
      field = input;
      if (option.type === ROLE) input.placeholder = 'role id';
      if (option.autocomplete) {
        const list = h('ul', {
          id: uid('choices'),
          role: 'listbox',
          class: 'choice-list',
          'aria-label': `${option.name} suggestions`,
          hidden: true,
        });
        input.setAttribute('aria-controls', list.id);
        extra = list;
        let timer: number | undefined;
        let asked = 0;
        input.addEventListener('input', () => {
          chosen = undefined;
          window.clearTimeout(timer);
          timer = window.setTimeout(() => {
            const mine = ++asked;
            const data = invocationData(command, leaf(), all(), { option, text: input.value });
            void this.deps.autocomplete(command, data).then((choices) => {
              if (mine !== asked) return;
              list.hidden = choices.length === 0;
              replaceChildren(
                list,
                ...choices.map((choice) => {
                  const item = h(
                    'li',
                    { role: 'option', class: 'choice', 'aria-selected': 'false' },
                    String(choice.name),
                  );
                  item.addEventListener('mousedown', (event) => event.preventDefault());
                  item.addEventListener('click', () => {
                    input.value = String(choice.name);
                    chosen = { text: input.value, value: choice.value };
                    list.hidden = true;
                  });
                  return item;
                }),
              );
            });
          }, 200);
        });
      }
    }
    const element = h('div', { class: 'option-field' }, label, field, extra, hint);
    return {
      option,
      element,
      read,
      setInvalid: (invalid) => {
        if (invalid) field.setAttribute('aria-invalid', 'true');
        else field.removeAttribute('aria-invalid');
      },
    };
  }
}

interface OptionControl {
  option: CommandOption;
  element: HTMLElement;
  read: () => unknown;
  setInvalid: (invalid: boolean) => void;
}

/** Every subcommand (with its group) of the command, or the command itself when it has none. */
function leavesOf(command: ListedCommand): Leaf[] {
  const options = command.options ?? [];
  const leaves: Leaf[] = [];
  for (const option of options) {
    if (option.type === SUB_COMMAND) leaves.push({ path: [option], options: option.options ?? [] });
    if (option.type === SUB_COMMAND_GROUP) {
      for (const sub of option.options ?? [])
        leaves.push({ path: [option, sub], options: sub.options ?? [] });
    }
  }
  return leaves.length > 0 ? leaves : [{ path: [], options }];
}

/** The interaction's `data` for the command with the values filled in (and the focused option, for autocomplete). */
function invocationData(
  command: ListedCommand,
  leaf: Leaf,
  controls: OptionControl[],
  focus: { option: CommandOption; text: string } | undefined,
): Record<string, unknown> {
  const values: Record<string, unknown>[] = [];
  for (const control of controls) {
    if (focus && control.option === focus.option) {
      values.push({ name: control.option.name, type: control.option.type, value: focus.text, focused: true });
      continue;
    }
    const value = control.read();
    if (value === undefined || (typeof value === 'number' && Number.isNaN(value))) continue;
    values.push({ name: control.option.name, type: control.option.type, value });
  }
  let options: Record<string, unknown>[] = values;
  for (const part of [...leaf.path].reverse()) options = [{ name: part.name, type: part.type, options }];
  return {
    id: command.id,
    name: command.name,
    type: command.type ?? 1,
    version: command.version,
    ...(command.guild_id ? { guild_id: command.guild_id } : {}),
    options,
  };
}
