import { AckPolicy, DeliverPolicy, nanos, type ConsumerConfig, type NatsConnection } from 'nats';
import { ensureEventStream } from './ensure-event-stream';
import type { EventStreamConfig } from './event-stream';

/** The JetStream consumer an event consumer reads through. */
export interface ConsumerSpec {
  name: string;
  /**
   * `shared` (default): a durable consumer, one per deployment, whose events the replicas
   * share and which keeps its place while none runs. `per-replica`: each replica's own,
   * seeing every event from its start on, removed by the server once unused for
   * `inactiveMs`.
   */
  scope?: 'shared' | 'per-replica';
  /** How long JetStream waits for an ack before redelivering (default 30 s); updated on an existing consumer. */
  ackWaitMs?: number;
  /** Messages delivered and not yet acknowledged, at most (default NATS's 1000); updated too. */
  maxAckPending?: number;
  /** How long an unused per-replica consumer lives (default 1 minute). */
  inactiveMs?: number;
}

const DEFAULT_ACK_WAIT_MS = 30_000;
const DEFAULT_INACTIVE_MS = 60_000;

/**
 * Makes sure the event stream and the consumer exist, the consumer reading
 * `filterSubject` (idempotent; safe when replicas race). An existing consumer's ack wait
 * and ack-pending limit are brought to the spec; its filter is left alone (NATS 2.9
 * cannot change it).
 */
export async function ensureConsumer(
  nats: NatsConnection,
  events: EventStreamConfig,
  spec: ConsumerSpec,
  filterSubject: string,
): Promise<void> {
  await ensureEventStream(nats, events);
  const jsm = await nats.jetstreamManager();
  const perReplica = spec.scope === 'per-replica';
  const config: Partial<ConsumerConfig> = {
    ...(perReplica
      ? { name: spec.name, inactive_threshold: nanos(spec.inactiveMs ?? DEFAULT_INACTIVE_MS) }
      : { durable_name: spec.name }),
    ack_policy: AckPolicy.Explicit,
    deliver_policy: perReplica ? DeliverPolicy.New : DeliverPolicy.All,
    filter_subject: filterSubject,
    ack_wait: nanos(spec.ackWaitMs ?? DEFAULT_ACK_WAIT_MS),
    ...(spec.maxAckPending === undefined ? {} : { max_ack_pending: spec.maxAckPending }),
  };
  const existing = await jsm.consumers.info(events.stream, spec.name).catch(() => undefined);
  if (!existing) {
    await jsm.consumers.add(events.stream, config).catch(async (error: unknown) => {
      // Another replica created it meanwhile.
      await jsm.consumers.info(events.stream, spec.name).catch(() => {
        throw error;
      });
    });
    return;
  }
  const changed =
    existing.config.ack_wait !== config.ack_wait ||
    (config.max_ack_pending !== undefined && existing.config.max_ack_pending !== config.max_ack_pending);
  if (changed) {
    await jsm.consumers.update(events.stream, spec.name, {
      ack_wait: config.ack_wait,
      ...(config.max_ack_pending === undefined ? {} : { max_ack_pending: config.max_ack_pending }),
    });
  }
}

/**
 * The one subject filter (NATS 2.9 takes one) that covers `names` under `prefix`: the
 * name itself for one, else their common leading tokens followed by `>`.
 */
export function filterSubjectOf(names: readonly string[], prefix: string): string {
  const [first, ...rest] = names.map((n) => n.split('.'));
  if (!first) throw new Error('a consumer needs at least one event name');
  if (rest.length === 0) return [prefix, ...first].join('.');
  let common = first.length - 1;
  for (const tokens of rest) {
    let same = 0;
    while (same < common && same < tokens.length - 1 && tokens[same] === first[same]) same++;
    common = same;
  }
  return [prefix, ...first.slice(0, common), '>'].join('.');
}
