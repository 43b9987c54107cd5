import { context, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { ConsumerMessages, JsMsg, MsgHdrs, NatsConnection } from 'nats';
import { connectNats, type NatsTarget } from './connect-nats';
import { ensureConsumer, filterSubjectOf, type ConsumerSpec } from './ensure-consumer';
import type { EventName } from './event-catalog';
import { eventTracer } from './event-span';
import { subjectWithoutPrefix, type EventStreamConfig } from './event-stream';
import { pipelineInstruments, secondsSince } from './pipeline-metrics';
import { readEvent, type CheckedEvent } from './read-event';
import { retry, type BackoffPolicy } from './retry';
import { contextOfCarrier, TRACE_HEADERS, type TraceCarrier } from './trace-context';

/** An event handed to a handler: checked against the catalog, with where it came from. */
export type ReceivedEvent<N extends EventName = EventName> = CheckedEvent<N> & {
  /** The subject it arrived on, prefix included. */
  subject: string;
  /** The context of its processing span, a child of the producer's trace (see `withEventSpan`). */
  trace: Context;
};

/** What a batch handler reports: the events to redeliver later (every other one is acknowledged). */
export interface BatchOutcome<N extends EventName> {
  retry: Array<{ event: ReceivedEvent<N>; error: unknown }>;
}

/** Handles a batch of events; throwing redelivers the whole batch later. */
export type EventBatchHandler<N extends EventName> = (
  events: ReceivedEvent<N>[],
) => Promise<BatchOutcome<N> | void>;

/** What the consumer logs through; pino's logger fits. */
export interface ConsumerLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Options of `startEventConsumer`. */
export type EventConsumerOptions<N extends EventName> = {
  /** A connection to share (left open at stop), or where to connect (closed at stop). */
  nats: NatsConnection | NatsTarget;
  events: EventStreamConfig;
  consumer: ConsumerSpec;
  /** The events to handle; others the consumer's filter lets through are acknowledged unread. */
  names: readonly N[];
  /** The ids among `ids` already handled (a record the handler keeps): they are acknowledged unread. */
  seen?: (ids: string[]) => Promise<Set<string>>;
  logger: ConsumerLogger;
  /** Events per handler call, at most (default 100). */
  batchSize?: number;
  /** How long a failed event waits before it is delivered again (default 1 s). */
  retryDelayMs?: number;
  /** The backoff of connecting and consuming again (default `DEFAULT_BACKOFF`; tests shorten it). */
  backoff?: BackoffPolicy;
} & (
  | {
      /** Handles one event at a time; throwing redelivers it later. */
      handle: (event: ReceivedEvent<N>) => Promise<void>;
      handleBatch?: never;
    }
  | { handleBatch: EventBatchHandler<N>; handle?: never }
);

/** A consumer running in the background. */
export interface RunningConsumer {
  /** Resolves once the consumer exists and messages flow (or it was stopped first). */
  ready: Promise<void>;
  /** Whether the NATS connection is up (for readiness and tests). */
  isConnected(): boolean;
  /** Stops pulling and finishes the batch in hand; unacknowledged messages come back later. */
  stop(): Promise<void>;
}

/**
 * How long each pull request lives. The client checks the consumer again after missed
 * heartbeats (half of this) or a failed check after a reconnect (this long): short, so
 * that consuming resumes within seconds of an outage rather than half a minute.
 */
const PULL_EXPIRES_MS = 5_000;

/**
 * Consumes events of the catalog from the event stream, in the background: connects with
 * the one backoff policy, makes sure the stream and the consumer exist, then hands
 * batches to the handler. Each message is read against the catalog: an invalid one is
 * terminated (logged with the reason), never redelivered; an id seen before in the batch
 * or by `seen` is acknowledged unread (JetStream can redeliver acknowledged messages);
 * the rest is acknowledged once the handler succeeded, or redelivered after
 * `retryDelayMs` when it failed. Each event is processed in a span continuing the trace
 * its producer recorded. Losing the consumer or the connection resumes with backoff.
 */
export function startEventConsumer<N extends EventName>(options: EventConsumerOptions<N>): RunningConsumer {
  const { logger, events } = options;
  const names = new Set(options.names);
  const filterSubject = filterSubjectOf(options.names, events.subjectPrefix);
  const batchSize = options.batchSize ?? 100;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const handleBatch = options.handleBatch ?? oneByOne(options.handle);
  const shared = isConnection(options.nats) ? options.nats : undefined;
  const stopping = new AbortController();
  const queue: JsMsg[] = [];
  let nats = shared;
  let messages: ConsumerMessages | undefined;
  let wakeProcessor: (() => void) | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const pull = async (): Promise<void> => {
    const connection = (nats ??= await connectNats(options.nats as NatsTarget, {
      logger,
      signal: stopping.signal,
      policy: options.backoff,
    }));
    await retry(
      async (attempt) => {
        await ensureConsumer(connection, events, options.consumer, filterSubject);
        const consumer = await connection.jetstream().consumers.get(events.stream, options.consumer.name);
        // Missing stream or consumer ends the iteration, so that they are made again.
        messages = await consumer.consume({
          max_messages: batchSize * 2,
          expires: PULL_EXPIRES_MS,
          abort_on_missing_resource: true,
        });
        // close() settles once the iteration below has ended: never await it before.
        if (stopping.signal.aborted) void messages.close().catch(() => undefined);
        markReady();
        for await (const message of messages) {
          attempt.progressed();
          queue.push(message);
          wakeProcessor?.();
        }
        if (!stopping.signal.aborted) throw new Error('the consumer stopped delivering');
      },
      {
        signal: stopping.signal,
        policy: options.backoff,
        onRetry: (error, { delayMs }) =>
          logger.warn(
            { err: error, consumer: options.consumer.name, retryInMs: delayMs },
            'event consumer interrupted; resuming',
          ),
      },
    );
  };

  const work = async (): Promise<void> => {
    while (!stopping.signal.aborted || queue.length > 0) {
      if (queue.length === 0) {
        await new Promise<void>((resolve) => (wakeProcessor = resolve));
        wakeProcessor = undefined;
        continue;
      }
      // Whatever goes wrong (an ack on a lost connection), the messages come back and the loop goes on.
      await handleMessages(queue.splice(0, batchSize)).catch((error: unknown) =>
        logger.warn({ err: error }, 'event batch not settled; it will be redelivered'),
      );
    }
  };

  /** Starts the processing span of an event, continuing the trace its message carries. */
  const receive = (event: CheckedEvent<N>, message: JsMsg): Received<N> => {
    const lag = secondsSince(event.occurredAt);
    if (lag !== undefined)
      pipelineInstruments().consumerLag.record(lag, {
        'messaging.system': 'nats',
        'messaging.consumer.group.name': options.consumer.name,
        'acs.event.name': event.name,
      });
    const parent = contextOfCarrier(traceCarrierOf(message.headers));
    const span = eventTracer.startSpan(
      `process ${event.name}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.operation.type': 'process',
          'messaging.destination.name': message.subject,
          'messaging.consumer.group.name': options.consumer.name,
          'messaging.message.id': event.id,
        },
      },
      parent,
    );
    return {
      event: { ...event, subject: message.subject, trace: trace.setSpan(parent, span) },
      message,
      span,
    };
  };

  const handleMessages = async (batch: JsMsg[]): Promise<void> => {
    const received = new Map<string, Received<N>>();
    const duplicates: JsMsg[] = [];
    for (const message of batch) {
      const read = readEvent(
        subjectWithoutPrefix(message.subject, events.subjectPrefix),
        message.data,
        names,
      );
      if (read.kind === 'ignored') message.ack();
      else if (read.kind === 'invalid') {
        logger.warn(
          { subject: message.subject, seq: message.seq, reason: read.reason },
          'invalid event; dropped',
        );
        message.term();
      } else if (received.has(read.event.id)) duplicates.push(message);
      else received.set(read.event.id, receive(read.event, message));
    }
    let fresh = [...received.values()];
    let failures: Map<string, unknown>;
    try {
      const seen = options.seen && fresh.length > 0 ? await options.seen([...received.keys()]) : undefined;
      for (const item of fresh) {
        if (!seen?.has(item.event.id)) continue;
        duplicates.push(item.message);
        item.span.end();
      }
      fresh = fresh.filter((item) => !seen?.has(item.event.id));
      const outcome = fresh.length > 0 ? await handleBatch(fresh.map((item) => item.event)) : undefined;
      failures = new Map((outcome?.retry ?? []).map(({ event, error }) => [event.id, error]));
      for (const [eventId, error] of failures)
        logger.warn({ err: error, eventId, retryInMs: retryDelayMs }, 'event not handled; retrying');
    } catch (error) {
      logger.warn(
        { err: error, count: fresh.length, retryInMs: retryDelayMs },
        'event batch failed; retrying',
      );
      failures = new Map(fresh.map((item) => [item.event.id, error]));
    }
    for (const { event, message, span } of fresh) {
      if (failures.has(event.id)) {
        message.nak(retryDelayMs);
        span.setStatus({ code: SpanStatusCode.ERROR, message: describe(failures.get(event.id)) });
      } else message.ack();
      span.end();
    }
    for (const message of duplicates) message.ack();
    if (duplicates.length > 0) logger.debug({ count: duplicates.length }, 'duplicate events dropped');
  };

  const loops = [
    pull().catch((error: unknown) => {
      if (!stopping.signal.aborted) logger.error({ err: error }, 'event consumer stopped');
    }),
    work(),
  ];

  return {
    ready,
    isConnected: () => nats !== undefined && !nats.isClosed(),
    async stop() {
      stopping.abort();
      markReady();
      void messages?.close().catch(() => undefined);
      wakeProcessor?.();
      await Promise.all(loops);
      if (!shared) await nats?.drain().catch(() => undefined);
    },
  };
}

/** An event in hand: what the handler gets, its message and its processing span. */
interface Received<N extends EventName> {
  event: ReceivedEvent<N>;
  message: JsMsg;
  span: Span;
}

/** A batch handler that hands the events over one at a time, retrying those that throw. */
export function oneByOne<N extends EventName>(
  handle: (event: ReceivedEvent<N>) => Promise<void>,
): EventBatchHandler<N> {
  return async (events) => {
    const retry: BatchOutcome<N>['retry'] = [];
    for (const event of events) {
      try {
        // In the event's processing span: what the handler logs or calls joins the trace.
        await context.with(event.trace, () => handle(event));
      } catch (error) {
        retry.push({ event, error });
      }
    }
    return { retry };
  };
}

/** The W3C trace context of a message's headers. */
function traceCarrierOf(headers: MsgHdrs | undefined): TraceCarrier | undefined {
  if (!headers) return undefined;
  const carrier: TraceCarrier = {};
  for (const header of TRACE_HEADERS) {
    const value = headers.get(header);
    if (value) carrier[header] = value;
  }
  return carrier;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isConnection(nats: NatsConnection | NatsTarget): nats is NatsConnection {
  return typeof (nats as NatsConnection).jetstream === 'function';
}
