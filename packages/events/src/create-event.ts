import { EVENT_CATALOG, serviceOf, typeOf, type EventName, type EventPayload } from './event-catalog';
import { createOutboxRow, type OutboxRow } from './event-envelope';
import { captureTraceContext } from './trace-context';

/**
 * The outbox row of the event `name` (subject `acs.<name>`), to insert in the transaction
 * that makes the change. `data` must match the catalog: its type at compile time, its
 * schema here (a mismatch throws before anything is written). The row records the trace
 * context of the running code, so that the event's consumers continue its trace.
 */
export function createEvent<N extends EventName>(
  name: N,
  data: EventPayload<N>,
  now = new Date(),
): OutboxRow {
  const checked = EVENT_CATALOG[name].parse(data);
  return createOutboxRow(serviceOf(name), typeOf(name), checked, now, captureTraceContext());
}
