import type { JsonRecord } from './invocation-facts';

/** An interaction as the `wait` outcome reads it. */
export interface SettledInteraction {
  state: 'acknowledged' | 'failed';
  reasonCode: number | null;
  /** The interaction object without its token. */
  payload: JsonRecord;
  /** The initial response `{type, data?}`; null when there was none. */
  response: JsonRecord | null;
  /** Its messages (not deleted), oldest first. */
  messages: JsonRecord[];
}

/**
 * The answer of `POST /interactions?wait=true` (ACS extension): `{interaction, outcome,
 * reason_code?, response, messages}`, so that a test invokes and asserts in one call.
 */
export function renderOutcome(settled: SettledInteraction): JsonRecord {
  const failed = settled.state === 'failed';
  return {
    interaction: settled.payload,
    outcome: failed ? 'failure' : 'success',
    ...(failed ? { reason_code: settled.reasonCode } : {}),
    response: settled.response,
    messages: settled.messages,
  };
}
