import type { Request, RequestHandler } from 'express';
import type { MonetizationClient, SubscriptionChange } from '../clients/monetization-client';
import type { PermissionsClient } from '../clients/permissions-client';
import { snowflakeParam } from '../http/path-params';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';
import { assertKnownGuild } from './assert-known-guild';

/**
 * The admin API's store and payment system (ADMIN-API.md, "Routes the next capabilities
 * add"): SKUs, purchases, refunds and the life of a subscription. `guard` adds the admin
 * check and the body reader.
 */
export function monetizationAdminRoutes(
  monetization: MonetizationClient,
  permissions: PermissionsClient,
  guard: (...handlers: RequestHandler[]) => RequestHandler[],
): Route[] {
  const body = (req: Request): string => req.rawBody ?? '';
  /** A purchase or subscription for a guild names an existing one. */
  const knownGuild = (req: Request) =>
    assertKnownGuild(permissions, (req.body as { guild_id?: unknown } | undefined)?.guild_id, 'guild_id');

  /** A payment-system step of a subscription. */
  const change = (kind: SubscriptionChange): RequestHandler[] =>
    guard(async (req, res) => {
      const subscriptionId = snowflakeParam(req, 'subscription_id');
      sendJson(res, 200, await monetization.changeSubscription(subscriptionId, kind));
    });

  return [
    {
      method: 'post',
      path: '/applications/:application_id/skus',
      handlers: guard(async (req, res) => {
        const applicationId = snowflakeParam(req, 'application_id');
        sendJson(res, 201, await monetization.createSku(applicationId, body(req)));
      }),
    },
    {
      method: 'post',
      path: '/entitlements',
      handlers: guard(async (req, res) => {
        await knownGuild(req);
        sendJson(res, 201, await monetization.purchaseSku(body(req)));
      }),
    },
    {
      method: 'post',
      path: '/entitlements/:entitlement_id/refund',
      handlers: guard(async (req, res) => {
        const entitlementId = snowflakeParam(req, 'entitlement_id');
        sendJson(res, 200, await monetization.refundEntitlement(entitlementId));
      }),
    },
    {
      method: 'post',
      path: '/subscriptions',
      handlers: guard(async (req, res) => {
        await knownGuild(req);
        sendJson(res, 201, await monetization.createSubscription(body(req)));
      }),
    },
    { method: 'post', path: '/subscriptions/:subscription_id/renew', handlers: change('renew') },
    { method: 'post', path: '/subscriptions/:subscription_id/cancel', handlers: change('cancel') },
    { method: 'post', path: '/subscriptions/:subscription_id/end', handlers: change('end') },
    {
      method: 'patch',
      path: '/subscriptions/:subscription_id',
      handlers: guard(async (req, res) => {
        const subscriptionId = snowflakeParam(req, 'subscription_id');
        sendJson(res, 200, await monetization.setRenewalSkus(subscriptionId, body(req)));
      }),
    },
  ];
}
