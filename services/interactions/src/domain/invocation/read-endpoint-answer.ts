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
  if (outcome.kind !== 'answered') return { kind: 'failed', reason: `${outcome.kind}: ${outcome.reason}` };
  if (outcome.status === 202) return { kind: 'deferred' };
  if (outcome.status !== 200) return { kind: 'failed', reason: `the endpoint answered ${outcome.status}` };
  try {
    return { kind: 'inline', response: JSON.parse(outcome.body) as unknown };
  } catch {
    return { kind: 'failed', reason: 'the endpoint answered 200 without a JSON body' };
  }
}
