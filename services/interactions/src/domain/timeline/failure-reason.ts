import { FailureReason } from '../interaction-enums';

/** A callback the rules refused (what the app was answered). */
export interface Refusal {
  /** When, ISO 8601. */
  at: string;
  status: number;
  /** Discord's error body the app got (`{code, message, errors?}`). */
  body: unknown;
}

/** Why an interaction failed, as recorded (the reason text is rendered from it). */
export type FailureCause =
  /** No initial response within the deadline (INTERACTION_FAILURE 2). */
  | { kind: 'timeout' }
  /**
   * No initial response within the deadline, and the app, which has no interactions
   * endpoint, had no bot session connected to the gateway to receive INTERACTION_CREATE
   * (INTERACTION_FAILURE 2, as Discord's client shows it).
   */
  | { kind: 'no_bot_session' }
  /** The interactions endpoint did not take the interaction (answered another status, timed out, unreachable). */
  | { kind: 'endpoint'; detail: string }
  /** The endpoint's inline answer was refused by the rules a callback is held to. */
  | { kind: 'refused'; status: number; body: unknown };

/** A failure to record: the INTERACTION_FAILURE code and its cause. */
export interface Failure {
  reasonCode: number;
  cause: FailureCause;
}

/** The failure of an interaction that got no initial response in time. */
export const TIMEOUT_FAILURE: Failure = { reasonCode: FailureReason.TIMEOUT, cause: { kind: 'timeout' } };

/** The failure of a gateway app's interaction that no bot session was connected to receive. */
export const NO_BOT_SESSION_FAILURE: Failure = {
  reasonCode: FailureReason.TIMEOUT,
  cause: { kind: 'no_bot_session' },
};

/** A failed delivery (INTERACTION_FAILURE 1 UNKNOWN) with its cause. */
export function deliveryFailure(cause: FailureCause): Failure {
  return { reasonCode: FailureReason.UNKNOWN, cause };
}

/**
 * The one text that says why an interaction failed: the timeline's `reason`, the `reason`
 * of `?wait=true`'s failure answer and of the user's INTERACTION_FAILURE, and the log's.
 * A timeout names the last refused callback, if any: the app did answer, wrongly.
 */
export function describeFailure(
  cause: FailureCause,
  deadlineMs: number,
  lastRefusal?: Pick<Refusal, 'status' | 'body'> | null,
): string {
  switch (cause.kind) {
    case 'endpoint':
      return cause.detail;
    case 'refused':
      return `the endpoint's answer was refused: ${describeRefusal(cause.status, cause.body)}`;
    case 'timeout':
    case 'no_bot_session': {
      const late = `the app did not answer within ${formatSeconds(deadlineMs)}`;
      const within =
        cause.kind === 'timeout'
          ? late
          : `${late}: no bot session was connected to receive INTERACTION_CREATE (the application has no interactions endpoint URL, so its interactions go to its bot over the gateway)`;
      if (!lastRefusal) return within;
      return `${within}; its callback was refused: ${describeRefusal(lastRefusal.status, lastRefusal.body)}`;
    }
  }
}

/** `400 50035 Invalid Form Body: data.embeds.0.title: BASE_TYPE_MAX_LENGTH (Must be 256 or fewer in length.)`. */
export function describeRefusal(status: number, body: unknown): string {
  const error = (body ?? {}) as { code?: unknown; message?: unknown; errors?: unknown };
  const head = `${status}${typeof error.code === 'number' ? ` ${error.code}` : ''}${
    typeof error.message === 'string' ? ` ${error.message}` : ''
  }`;
  const fields = fieldErrorsOf(error.errors);
  return fields.length > 0 ? `${head}: ${fields.join('; ')}` : head;
}

/** The field errors of a 50035 tree, each as `path: CODE (message)`. */
function fieldErrorsOf(tree: unknown, path: string[] = []): string[] {
  if (tree === null || typeof tree !== 'object') return [];
  const node = tree as Record<string, unknown>;
  const found: string[] = [];
  if (Array.isArray(node._errors)) {
    for (const entry of node._errors as { code?: unknown; message?: unknown }[]) {
      found.push(`${path.join('.') || '(body)'}: ${String(entry.code)} (${String(entry.message)})`);
    }
  }
  for (const [key, child] of Object.entries(node)) {
    if (key !== '_errors') found.push(...fieldErrorsOf(child, [...path, key]));
  }
  return found;
}

/** 3000 → "3 s", 1500 → "1.5 s". */
function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
