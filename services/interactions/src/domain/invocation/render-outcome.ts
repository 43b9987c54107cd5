import { CallbackType } from '../callbacks/callback-types';
import { MessageFlag } from '../messages/message-flags';
import type { JsonRecord } from './invocation-facts';

/** An interaction as the `wait` outcome reads it. */
export interface SettledInteraction {
  state: 'acknowledged' | 'failed';
  reasonCode: number | null;
  /** Why it failed (the timeline's reason); null when it did not, or its trace is gone. */
  reason: string | null;
  /** The interaction object without its token. */
  payload: JsonRecord;
  /** The initial response `{type, data?}`; null when there was none. */
  response: JsonRecord | null;
  /** Its messages (not deleted), oldest first. */
  messages: JsonRecord[];
  /** The id of its original response message, if it has one. */
  originalMessageId: string | null;
  /** The follow-ups, edits and deletions its trace noted, in order. */
  steps: JsonRecord[];
}

/**
 * The answer of `POST /interactions?wait=true` (ACS extension): `{interaction, outcome,
 * reason_code?, reason?, response, messages}`, so that a test invokes and asserts in one call.
 */
export function renderOutcome(settled: SettledInteraction): JsonRecord {
  const failed = settled.state === 'failed';
  return {
    interaction: settled.payload,
    outcome: failed ? 'failure' : 'success',
    ...(failed ? { reason_code: settled.reasonCode, reason: settled.reason } : {}),
    response: settled.response,
    messages: settled.messages,
  };
}

/**
 * Whether an interaction's answer is final (`?wait=final`): it failed, or its initial
 * response is not a deferral, or the deferral was filled: a deferred message (5) whose
 * original no longer shows the loading state, a deferred update (6) followed by an edit of
 * the message.
 */
export function isFinalAnswer(settled: SettledInteraction): boolean {
  if (settled.state === 'failed') return true;
  const type = settled.response?.type;
  if (type === CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE) {
    const original = settled.messages.find((message) => message.id === settled.originalMessageId);
    // A deleted original is as filled as it will ever be.
    if (original === undefined) return true;
    return (((original.flags as number | undefined) ?? 0) & MessageFlag.LOADING) === 0;
  }
  if (type === CallbackType.DEFERRED_UPDATE_MESSAGE) {
    return settled.steps.some((step) => step.kind === 'edit' || step.kind === 'delete');
  }
  return true;
}

/**
 * The answer of `POST /interactions?wait=final` (ACS extension): `?wait=true`'s, plus
 * `final` (false when the deadline passed with the deferral unfilled), the original
 * response message and the follow-ups posted meanwhile.
 */
export function renderFinalOutcome(settled: SettledInteraction, final: boolean): JsonRecord {
  const original = settled.messages.find((message) => message.id === settled.originalMessageId) ?? null;
  return {
    ...renderOutcome(settled),
    final,
    original,
    followups: settled.messages.filter((message) => message.id !== settled.originalMessageId),
  };
}
