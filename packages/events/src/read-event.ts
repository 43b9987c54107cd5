import { z } from 'zod';
import { EVENT_CATALOG, typeOf, type EventName, type EventPayload } from './event-catalog';

/** An event as its consumer gets it: its envelope, with `data` checked against the catalog. */
export type CheckedEvent<N extends EventName = EventName> = {
  [K in N]: {
    name: K;
    id: string;
    /** When the change happened (ISO 8601), as its producer recorded it. */
    occurredAt: string;
    data: EventPayload<K>;
  };
}[N];

/** What a message turned out to be. */
export type ReadResult<N extends EventName> =
  | { kind: 'event'; event: CheckedEvent<N> }
  /** An event this consumer does not take (its filter is wider than its names). */
  | { kind: 'ignored' }
  | { kind: 'invalid'; reason: string };

const envelope = z.object({
  id: z.string().min(1),
  type: z.string(),
  occurred_at: z.string(),
  data: z.unknown(),
});

/**
 * Reads a message of the event `name` (its subject without the prefix): the envelope JSON
 * and its data, checked against the catalog. Names outside `names` are ignored; anything
 * malformed is invalid, with the reason.
 */
export function readEvent<N extends EventName>(
  name: string,
  body: Uint8Array,
  names: ReadonlySet<N>,
): ReadResult<N> {
  if (!names.has(name as N)) return { kind: 'ignored' };
  const eventName = name as N;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return { kind: 'invalid', reason: 'not JSON' };
  }
  const parsed = envelope.safeParse(json);
  if (!parsed.success) return { kind: 'invalid', reason: `envelope: ${describeIssues(parsed.error)}` };
  if (parsed.data.type !== typeOf(eventName))
    return { kind: 'invalid', reason: `type ${parsed.data.type} does not match the subject` };
  const data = EVENT_CATALOG[eventName].safeParse(parsed.data.data);
  if (!data.success) return { kind: 'invalid', reason: `data: ${describeIssues(data.error)}` };
  const event = {
    name: eventName,
    id: parsed.data.id,
    occurredAt: parsed.data.occurred_at,
    data: data.data,
  } as CheckedEvent<N>;
  return { kind: 'event', event };
}

/** The issues of a failed parse on one line: `application_id: not a snowflake; scopes: …`. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}
