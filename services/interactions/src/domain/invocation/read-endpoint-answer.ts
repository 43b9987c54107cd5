/** How a POST to an interactions endpoint ended (the outbound poster's outcome). */
export type EndpointOutcome =
  | { kind: 'answered'; status: number; body: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'failed'; reason: string };

/** What the application's answer means for the interaction. */
export type EndpointAnswer =
  /** 200 with JSON: the initial response, processed as a callback would be. */
  | { kind: 'inline'; response: unknown }
  /** 202: the application answers through the callback route. */
  | { kind: 'deferred' }
  /** Anything else: the interaction fails at once (INTERACTION_FAILURE reason 1). */
  | { kind: 'failed'; reason: string };

/**
 * Reads an interactions endpoint's answer (A4, A7): 200 with a JSON body is the initial
 * response; 202 means the application will call the callback route (its body, which
 * should be empty, is not read); any other status, a 200 that is not JSON, a refused
 * address or a failed connection fail the interaction.
 */
export function readEndpointAnswer(outcome: EndpointOutcome): EndpointAnswer {
  if (outcome.kind === 'refused') {
    return { kind: 'failed', reason: `the interactions endpoint's address was refused: ${outcome.reason}` };
  }
  if (outcome.kind === 'failed') {
    return {
      kind: 'failed',
      reason: TIMED_OUT.test(outcome.reason)
        ? `the interactions endpoint timed out (${outcome.reason})`
        : `the interactions endpoint was unreachable: ${outcome.reason}`,
    };
  }
  if (outcome.status === 202) return { kind: 'deferred' };
  if (outcome.status !== 200) {
    const body = outcome.body.trim().slice(0, BODY_QUOTED_CHARS);
    return {
      kind: 'failed',
      reason: `the interactions endpoint answered ${outcome.status}${body ? `: ${body}` : ''}`,
    };
  }
  try {
    return { kind: 'inline', response: JSON.parse(outcome.body) as unknown };
  } catch {
    return { kind: 'failed', reason: 'the interactions endpoint answered 200 without a JSON body' };
  }
}

/** How the outbound poster says it waited in vain (`no answer within N ms`). */
const TIMED_OUT = /^no answer within/;
/** How much of a failing endpoint's body its reason quotes. */
const BODY_QUOTED_CHARS = 200;
