import { instrumentsOf } from '@acs/service-kit';

/** How one delivery went: by channel, what became of it. */
export type DeliveryOutcome =
  | { channel: 'gateway'; outcome: 'sent' }
  | { channel: 'event'; outcome: 'plan_failed' }
  | { channel: 'webhook'; outcome: 'delivered' | 'retry' | 'failed' | 'skipped' };

const deliveryInstruments = instrumentsOf((meter) => ({
  deliveries: meter.createCounter('acs.dispatcher.deliveries', {
    description: 'Deliveries of events by channel (gateway, webhook) and outcome',
  }),
}));

/**
 * Counts deliveries in `acs.dispatcher.deliveries` by `acs.delivery.channel` and
 * `acs.delivery.outcome`: gateway dispatches sent; webhook attempts delivered (204),
 * retried, failed for good or skipped; events whose plan failed (channel `event`: a
 * service it looks up was down; redelivered later).
 */
export function countDeliveries(what: DeliveryOutcome, count = 1): void {
  if (count === 0) return;
  deliveryInstruments().deliveries.add(count, {
    'acs.delivery.channel': what.channel,
    'acs.delivery.outcome': what.outcome,
  });
}
