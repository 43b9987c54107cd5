import { describeMessage, describeModal } from '../describe/describe-message';
import type { DiscordMessage, InteractionResult } from './types';
import type { Dispatch } from './user-session';

type Entry =
  | { kind: 'note'; seq: number; text: string }
  | { kind: 'interaction'; seq: number; actor: string; action: string; result: InteractionResult }
  | { kind: 'message'; seq: number; t: string; message: DiscordMessage; channel: string };

/**
 * The readable story of a world: each interaction a user started with what the app
 * answered (or why it failed), and every other message and edit the world's users saw.
 */
export class Transcript {
  private readonly entries: Entry[] = [];
  private readonly heard = new Set<string>();
  private seq = 0;

  note(text: string): void {
    this.entries.push({ kind: 'note', seq: ++this.seq, text });
  }

  /** Records an interaction once it settled. */
  interaction(actor: string, action: string, result: InteractionResult): void {
    this.entries.push({ kind: 'interaction', seq: ++this.seq, actor, action, result });
  }

  /**
   * Records a message dispatch a user's session received (the same one heard by several
   * users is kept once); `channel` names its channel.
   */
  observe({ t, d }: Dispatch, channel: string): void {
    if (t !== 'MESSAGE_CREATE' && t !== 'MESSAGE_UPDATE') return;
    const key = `${t}:${d.id}:${d.edited_timestamp ?? ''}:${d.content ?? ''}:${d.flags ?? 0}:${JSON.stringify(d.components ?? [])}`;
    if (this.heard.has(key)) return;
    this.heard.add(key);
    this.entries.push({ kind: 'message', seq: ++this.seq, t, message: d as DiscordMessage, channel });
  }

  /** The transcript as text, one line per event. */
  text(): string {
    // A message an interaction's result shows is told there, not again as heard before it.
    const toldBy = new Map<string, number>();
    for (const entry of this.entries) {
      if (entry.kind !== 'interaction') continue;
      const { response, followups } = entry.result;
      for (const message of [...(response ? [response] : []), ...followups])
        toldBy.set(message.id, entry.seq);
    }
    const lines: string[] = [];
    for (const entry of this.entries) {
      if (entry.kind === 'note') lines.push(`· ${entry.text}`);
      else if (entry.kind === 'interaction') lines.push(...describeInteraction(entry));
      else if ((toldBy.get(entry.message.id) ?? 0) < entry.seq) {
        const verb = entry.t === 'MESSAGE_UPDATE' ? 'edited' : 'posted';
        lines.push(...describeMessage(entry.message, `#${entry.channel} ${verb} · `));
      }
    }
    return lines.join('\n');
  }
}

function describeInteraction(entry: Extract<Entry, { kind: 'interaction' }>): string[] {
  const { result } = entry;
  const lines = [`${entry.actor} › ${entry.action}`];
  const indent = (text: string[], first: string) =>
    text.map((line, i) => `${i === 0 ? first : ' '.repeat(first.length)}${line}`);
  if (result.choices) {
    lines.push(
      `  ↳ ${result.choices.length} choice(s)${result.choices.length ? ': ' : ''}` +
        result.choices.map((c) => `${c.name} = ${JSON.stringify(c.value)}`).join(', '),
    );
  }
  if (result.modal) lines.push(...indent(describeModal(result.modal.id, result.modal), '  ↳ '));
  if (result.response) {
    const deferred = result.deferred ? 'deferred, then ' : '';
    lines.push(...indent(describeMessage(result.response), `  ↳ ${deferred}`));
  }
  for (const followup of result.followups)
    lines.push(...indent(describeMessage(followup), '  ↳ follow-up: '));
  if (result.acknowledged && !result.response && !result.choices && !result.modal && !result.followups.length)
    lines.push('  ↳ ✓ acknowledged, no message');
  if (result.error) lines.push(...indent(result.error.split('\n'), '  ✗ '));
  return lines;
}
