import {
  interactionAudienceOf,
  interactionEvent,
  type InteractionEvent,
  type InteractionParties,
} from '../interaction-events';

/** What failing an interaction found: it failed now, it had its outcome already, or its deadline is still ahead. */
export type FailResult = { kind: 'failed' } | { kind: 'settled' } | { kind: 'pending'; remainingMs: number };

/** Failed interactions' events and the outcomes announced. */
export interface FailurePlan {
  /** One INTERACTION_FAILURE with `reasonCode` per interaction, in their order. */
  events: InteractionEvent[];
  /** Every failed interaction: `wait` hears of its outcome. */
  outcomeIds: string[];
}

/** Plans the announcement of interactions that just failed with `reasonCode` (1 UNKNOWN, 2 TIMEOUT). */
export function planFailures(failed: readonly InteractionParties[], reasonCode: number): FailurePlan {
  return {
    events: failed.map((parties) =>
      interactionEvent('interactions.interaction.failed', {
        ...interactionAudienceOf(parties),
        reason_code: reasonCode,
      }),
    ),
    outcomeIds: failed.map((parties) => parties.id),
  };
}

/**
 * What an attempt to fail an interaction found when it failed nothing, from its row as the
 * attempt left it: still pending (its deadline ahead: the time left), or settled already
 * (acknowledged, failed, or gone).
 */
export function unfailedOutcomeOf(row: { state: string; remainingMs: number } | undefined): FailResult {
  return row?.state === 'pending' ? { kind: 'pending', remainingMs: row.remainingMs } : { kind: 'settled' };
}
