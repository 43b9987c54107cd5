import { metrics, ValueType, type Histogram, type MeterProvider } from '@opentelemetry/api';

/** Bucket bounds, in seconds, of the pipeline's lag: from 1 ms to an hour behind. */
const LAG_BUCKETS_SECONDS = [
  0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600,
];

interface PipelineInstruments {
  relayLag: Histogram;
  consumerLag: Histogram;
}

const byProvider = new WeakMap<MeterProvider, PipelineInstruments>();

/**
 * The event pipeline's lag histograms (meter `acs`), made once per global meter provider
 * (a no-op one until a service starts its metrics, see service-kit's startTelemetry):
 * - `messaging.outbox.lag`: at the relay, from the outbox row's insertion (its
 *   `created_at`, on the database's clock) until NATS acknowledged its publish;
 * - `messaging.consumer.lag`: at a consumer, from the change (the event's `occurred_at`)
 *   until the event is received: the whole pipeline, outbox, relay and stream.
 * Labelled by `messaging.system` and `acs.event.name` (the catalog's names: few), and
 * the consumer's `messaging.consumer.group.name`.
 */
export function pipelineInstruments(): PipelineInstruments {
  const provider = metrics.getMeterProvider();
  let instruments = byProvider.get(provider);
  if (!instruments) {
    const meter = provider.getMeter('acs');
    const lag = (name: string, description: string) =>
      meter.createHistogram(name, {
        description,
        unit: 's',
        valueType: ValueType.DOUBLE,
        advice: { explicitBucketBoundaries: LAG_BUCKETS_SECONDS },
      });
    instruments = {
      relayLag: lag('messaging.outbox.lag', 'Time from an event’s change until the relay published it'),
      consumerLag: lag('messaging.consumer.lag', 'Time from an event’s change until a consumer received it'),
    };
    byProvider.set(provider, instruments);
  }
  return instruments;
}

/** Seconds since `occurredAt` (an ISO time), or undefined when it does not parse. */
export function secondsSince(occurredAt: string | undefined, now = Date.now()): number | undefined {
  const at = occurredAt ? Date.parse(occurredAt) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, (now - at) / 1000);
}
