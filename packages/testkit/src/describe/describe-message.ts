/* eslint-disable @typescript-eslint/no-explicit-any -- Discord's JSON, read field by field */
/**
 * Discord objects as the chat client would show them, in plain text lines: messages with
 * their embeds and components, modals with their inputs. Shared by the CLI's output and
 * the kit's transcript.
 */

/** Component types as the text names them. */
const COMPONENT_NAMES: Record<number, string> = {
  2: 'button',
  3: 'select',
  5: 'user select',
  6: 'role select',
  7: 'mentionable select',
  8: 'channel select',
  10: 'text',
};

/** Message flags the text shows (D:resources/message.mdx §Message Flags). */
export const EPHEMERAL = 1 << 6;
export const LOADING = 1 << 7;

/**
 * One message: `author (marks): content`, its embeds as `┃` lines, then its components.
 * `pad` indents every line.
 */
export function describeMessage(message: any, pad = ''): string[] {
  const marks: string[] = [];
  if (message.flags & EPHEMERAL) marks.push('only you can see this');
  if (message.flags & LOADING) marks.push('thinking…');
  const author = message.author?.username ?? 'app';
  const lines = [`${pad}${author}${marks.length ? ` (${marks.join(', ')})` : ''}: ${message.content ?? ''}`];
  for (const embed of message.embeds ?? []) {
    lines.push(`${pad}  ┃ ${[embed.title, embed.description].filter(Boolean).join(' — ')}`);
    for (const field of embed.fields ?? []) lines.push(`${pad}  ┃ ${field.name}: ${field.value}`);
  }
  for (const attachment of message.attachments ?? []) lines.push(`${pad}  📎 ${attachment.filename}`);
  return [...lines, ...describeComponents(message).map((line) => `${pad}${line}`)];
}

/**
 * A message's components as lines: each button and select with what a click or a select
 * needs (the message id and the custom_id), text displays as text.
 */
export function describeComponents(message: any): string[] {
  const lines: string[] = [];
  const visit = (component: any, depth: number) => {
    if (!component || typeof component !== 'object') return;
    const pad = '  '.repeat(depth);
    const name = COMPONENT_NAMES[component.type];
    if (component.type === 10) lines.push(`${pad}${component.content}`);
    else if (component.type === 2 && component.style === 5)
      lines.push(`${pad}[link ${component.label ?? ''}] ${component.url}`);
    else if (component.type === 2 && component.style === 6)
      lines.push(`${pad}[premium button] sku ${component.sku_id}`);
    else if (name && component.custom_id !== undefined) {
      const options = (component.options ?? []).map((o: any) => o.value).join('|');
      const label = component.label ?? component.placeholder ?? '';
      const off = component.disabled ? ' (disabled)' : '';
      lines.push(
        `${pad}[${name}${label ? ` "${label}"` : ''}${off}] ${component.custom_id}${options ? ` = ${options}` : ''}`,
      );
    }
    for (const child of component.components ?? []) visit(child, depth + 1);
    if (component.accessory) visit(component.accessory, depth + 1);
  };
  for (const component of message.components ?? []) visit(component, 1);
  if (lines.length > 0) lines.unshift(`  components of message ${message.id}:`);
  return lines;
}

/**
 * A modal the app opened: its title and each input's label and custom_id; `cli` hints the
 * CLI's `--file` for file uploads.
 */
export function describeModal(interactionId: string | undefined, modal: any, { cli = false } = {}): string[] {
  const lines = [`modal "${modal?.title}" (${modal?.custom_id}), opened by interaction ${interactionId}:`];
  const visit = (component: any) => {
    if (!component || typeof component !== 'object') return;
    if (component.type === 18) {
      const input = component.component ?? {};
      const upload =
        input.type === 19 ? (cli ? ` (files: --file ${input.custom_id}=PATH)` : ' (file upload)') : '';
      lines.push(
        `  ${component.label}: ${input.custom_id}${input.required === false ? ' (optional)' : ''}${upload}`,
      );
      return;
    }
    if (component.type === 4)
      lines.push(`  ${component.label ?? component.custom_id}: ${component.custom_id}`);
    if (component.type === 10) lines.push(`  ${component.content}`);
    for (const child of component.components ?? []) visit(child);
  };
  for (const component of modal?.components ?? []) visit(component);
  return lines;
}

/** Why an interaction failed, by INTERACTION_FAILURE's reason_code (UD:gateway/gateway-events.mdx). */
export function describeFailureReason(reasonCode: number | null | undefined): string {
  switch (reasonCode) {
    case 1:
      return 'the app could not be reached or answered badly (reason_code 1): its endpoint refused or failed the delivery, or its answer was not a valid interaction response';
    case 2:
      return 'the app did not answer in time (reason_code 2): no callback within the response deadline (is the bot running, logged in with this app’s token, and handling this interaction?)';
    default:
      return `the interaction failed (reason_code ${reasonCode ?? 'unknown'})`;
  }
}
