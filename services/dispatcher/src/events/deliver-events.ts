import { withEventSpan, type BatchOutcome, type EventBatchHandler, type ReceivedEvent } from '@acs/events';
import type { OAuthClient } from '../clients/oauth-client';
import type { PermissionsClient } from '../clients/permissions-client';
import { countDeliveries } from '../delivery/delivery-metrics';
import type { DispatchBus } from '../delivery/gateway/dispatch-bus';
import type { DispatchedEventName } from '../domain/plan-event';
import type { DeliveryStore, NewDelivery } from '../store/delivery-store';
import { planDeliveries, type PlannedDeliveries } from './plan-deliveries';

/** What delivering needs. */
export interface DeliveryDeps {
  store: DeliveryStore;
  oauth: OAuthClient;
  permissions: PermissionsClient;
  bus: DispatchBus;
  /** Called after webhook deliveries were recorded. */
  onDeliveriesRecorded: () => void;
}

/**
 * Delivers a batch of events (the handler of the dispatcher's consumer): plans each one
 * concurrently (looking up what it embeds), sends gateway dispatches in stream order,
 * then records the handled ids with the webhook deliveries in one transaction; the
 * consumer acknowledges only after that. An event whose plan failed (a service down) is
 * retried alone; a failure to record retries the batch. Duplicates never get here: the
 * consumer drops the ids `store.seen` knows.
 */
export function deliverEvents(deps: DeliveryDeps): EventBatchHandler<DispatchedEventName> {
  const { store, oauth, permissions, bus } = deps;
  return async (events) => {
    const plans = await Promise.all(
      events.map((event) =>
        withEventSpan(event, `plan ${event.name}`, () => planDeliveries(event, oauth, permissions)).catch(
          (error: unknown) => error as Error,
        ),
      ),
    );
    const outcome: BatchOutcome<DispatchedEventName> = { retry: [] };
    const handled: ReceivedEvent<DispatchedEventName>[] = [];
    const deliveries: NewDelivery[] = [];
    for (const [i, event] of events.entries()) {
      const plan = plans[i] as PlannedDeliveries | Error;
      if (plan instanceof Error) {
        countDeliveries({ channel: 'event', outcome: 'plan_failed' });
        outcome.retry.push({ event, error: plan });
        continue;
      }
      await withEventSpan(
        event,
        `deliver ${event.name}`,
        () => {
          for (const route of plan.gateway) bus.send(route);
          countDeliveries({ channel: 'gateway', outcome: 'sent' }, plan.gateway.length);
          if (plan.webhook) deliveries.push(plan.webhook);
        },
        { attributes: deliveryAttributes(plan) },
      );
      handled.push(event);
    }
    if (handled.length > 0) await bus.flush();
    await store.record(
      handled.map((event) => ({ id: event.id, subject: event.subject })),
      deliveries,
    );
    if (deliveries.length > 0) deps.onDeliveriesRecorded();
    return outcome;
  };
}

/** What a delivery span says it delivered. */
function deliveryAttributes(plan: PlannedDeliveries): Record<string, string> {
  const attributes: Record<string, string> = {};
  const first = plan.gateway[0];
  if (first) {
    const { message } = first;
    attributes['acs.gateway.dispatch'] =
      'kind' in message && (message.kind === 'invalidate' || message.kind === 'recheck')
        ? message.kind
        : message.t;
    attributes['acs.gateway.routes'] = plan.gateway.map((route) => route.to).join(',');
  }
  if (plan.webhook) attributes['acs.webhook.event'] = plan.webhook.eventType;
  return attributes;
}
