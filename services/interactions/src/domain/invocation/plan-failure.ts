import {
  interactionAudienceOf,
  interactionEvent,
  type InteractionEvent,
  type InteractionParties,
} from '../interaction-events';
import { describeFailure, type Failure, type Refusal } from '../timeline/failure-reason';
import type { JsonRecord } from './invocation-facts';

/** What failing an interaction found: it failed now (and why), it had its outcome already, or its deadline is still ahead. */
export type FailResult =
  { kind: 'failed'; reason: string } | { kind: 'settled' } | { kind: 'pending'; remainingMs: number };

/** An interaction that just failed, as the failing statement returned it. */
export interface FailedParties extends InteractionParties {
  /** The last callback refused before it failed (from its trace), if any. */
  lastRefusal?: Pick<Refusal, 'status' | 'body'> | null;
}

/** Failed interactions' events, outcomes, traces and reasons. */
export interface FailurePlan {
  /** One INTERACTION_FAILURE with the reason code and text per interaction, in their order. */
  events: InteractionEvent[];
  /** Every failed interaction: `wait` hears of its outcome. */
  outcomeIds: string[];
  /** The outcome each trace records: `{kind: "failed", reason_code, reason, cause}`. */
  traces: { id: string; outcome: JsonRecord }[];
  /** Why each failed, in their order: what the caller logs. */
  reasons: { id: string; applicationId: string; reason: string }[];
}

/**
 * Plans the announcement of interactions that just failed with `failure` (1 UNKNOWN with
 * its cause, 2 TIMEOUT): the reason text (failure-reason.ts) is the same in the user's
 * INTERACTION_FAILURE, the trace, `wait`'s answer and the log.
 */
export function planFailures(
  failed: readonly FailedParties[],
  failure: Failure,
  deadlineMs: number,
): FailurePlan {
  const reasons = failed.map((parties) => ({
    id: parties.id,
    applicationId: parties.applicationId,
    reason: describeFailure(failure.cause, deadlineMs, parties.lastRefusal),
  }));
  return {
    events: failed.map((parties, index) =>
      interactionEvent('interactions.interaction.failed', {
        ...interactionAudienceOf(parties),
        reason_code: failure.reasonCode,
        reason: reasons[index]?.reason ?? '',
      }),
    ),
    outcomeIds: failed.map((parties) => parties.id),
    traces: failed.map((parties, index) => ({
      id: parties.id,
      outcome: {
        kind: 'failed',
        reason_code: failure.reasonCode,
        reason: reasons[index]?.reason ?? '',
        cause: failure.cause,
        ...(parties.lastRefusal ? { last_refusal: parties.lastRefusal } : {}),
      },
    })),
    reasons,
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
