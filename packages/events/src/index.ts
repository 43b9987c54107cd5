export {
  EVENT_CATALOG,
  isEventName,
  serviceOf,
  typeOf,
  type EventName,
  type EventNameOf,
  type EventPayload,
  type EventPayloads,
} from './event-catalog';
export { createEvent } from './create-event';
export { writePrismaOutboxEvent, prismaSqlRunner, type PrismaOutboxTransaction } from './write-outbox-event';
export type { EventEnvelope, OutboxRow } from './event-envelope';
export { outboxNotifySql, outboxChannel } from './outbox-sql';
export { insertOutboxSql, writeOutboxRows, type SqlParameters, type SqlRunner } from './write-outbox-rows';
export { OutboxRelay, type OutboxRelayOptions, type RelayLogger } from './outbox-relay';
export { startOutboxRelay, type RunningRelay } from './start-outbox-relay';
export {
  EVENTS_STREAM,
  EVENTS_SUBJECT_PREFIX,
  DEFAULT_EVENT_STREAM,
  eventStreamOf,
  type EventSettings,
  publishedSubject,
  subjectWithoutPrefix,
  type EventStreamConfig,
} from './event-stream';
export { ensureEventStream } from './ensure-event-stream';
export { ensureConsumer, filterSubjectOf, type ConsumerSpec } from './ensure-consumer';
export { connectNats, type ConnectLogger, type NatsTarget } from './connect-nats';
export {
  startEventConsumer,
  oneByOne,
  type BatchOutcome,
  type ConsumerLogger,
  type EventBatchHandler,
  type EventConsumerOptions,
  type ReceivedEvent,
  type RunningConsumer,
} from './start-event-consumer';
export { readEvent, type CheckedEvent, type ReadResult } from './read-event';
export { withEventSpan } from './event-span';
export { captureTraceContext, type TraceCarrier } from './trace-context';
export {
  retry,
  sleep,
  backoffDelay,
  DEFAULT_BACKOFF,
  type BackoffPolicy,
  type RetryAttempt,
  type RetryOptions,
} from './retry';
export { WakeSignal } from './wake-signal';
export { schedulePruning, type PruningLogger, type ScheduledPruning } from './schedule-pruning';
export { botGatewaySubject, hasBotSession } from './bot-sessions';
export { followEventsLive, type LiveEventFeed } from './follow-events-live';
