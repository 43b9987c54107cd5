import type { Request, RequestHandler } from 'express';
import type { Authenticator } from '../auth/create-authenticator';
import type { MonetizationCaller } from '../clients/monetization-client';
import type { PeerClients } from '../clients/peer-clients';
import { assertMayReadEntitlements } from '../domain/assert-may-read-entitlements';
import { requireBearer } from '../domain/require-scope';
import { snowflakeParam } from '../http/path-params';
import { assertKnownGuild } from './assert-known-guild';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';

/** `owner_type` of a test entitlement for a guild. */
const GUILD_OWNER = 1;

/** The query string as sent, one text per parameter (a repeated one joined with commas); oauth reads it. */
function queryOf(req: Request): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.query)) {
    query[key] = Array.isArray(value) ? value.map(String).join(',') : String(value);
  }
  return query;
}

/**
 * The monetization routes (facts C): SKUs, entitlements (list, get, consume, test
 * entitlements), the current user's entitlements and SKU subscriptions. oauth owns the
 * data and reads the queries and bodies; these check who may ask.
 */
export function monetizationRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
): Route[] {
  const { monetization } = clients.oauth;

  /** The caller of `/applications/{application_id}/…`, checked against the application. */
  async function callerOf(req: Request, allowBearer: boolean): Promise<MonetizationCaller> {
    const principal = await auth.authenticate(req);
    const applicationId = snowflakeParam(req, 'application_id');
    assertMayReadEntitlements(principal, applicationId, allowBearer);
    return { applicationId, userId: principal.kind === 'bearer' ? principal.userId : '' };
  }

  const listSkus: RequestHandler = async (req, res) => {
    const caller = await callerOf(req, false);
    sendJson(res, 200, await monetization.listSkus(caller.applicationId));
  };

  const listEntitlements: RequestHandler = async (req, res) => {
    const caller = await callerOf(req, true);
    sendJson(res, 200, await monetization.listEntitlements(caller, queryOf(req)));
  };

  const getEntitlement: RequestHandler = async (req, res) => {
    const caller = await callerOf(req, true);
    sendJson(res, 200, await monetization.getEntitlement(caller, snowflakeParam(req, 'entitlement_id')));
  };

  const consume: RequestHandler = async (req, res) => {
    const caller = await callerOf(req, true);
    await monetization.consumeEntitlement(caller, snowflakeParam(req, 'entitlement_id'));
    sendNoContent(res);
  };

  const createTest: RequestHandler = async (req, res) => {
    const caller = await callerOf(req, false);
    const body = req.body as { owner_id?: unknown; owner_type?: unknown } | undefined;
    if (body?.owner_type === GUILD_OWNER) await assertKnownGuild(clients.permissions, body.owner_id);
    sendJson(res, 200, await monetization.createTestEntitlement(caller.applicationId, req.rawBody ?? ''));
  };

  const deleteTest: RequestHandler = async (req, res) => {
    const caller = await callerOf(req, true);
    await monetization.deleteTestEntitlement(caller, snowflakeParam(req, 'entitlement_id'));
    sendNoContent(res);
  };

  const myEntitlements: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    requireBearer(principal);
    const applicationId = snowflakeParam(req, 'application_id');
    assertMayReadEntitlements(principal, applicationId, true);
    const caller = { applicationId, userId: principal.userId };
    sendJson(res, 200, await monetization.listEntitlements(caller, queryOf(req)));
  };

  /** The caller of `/skus/{sku_id}/…`: its application is the one whose SKU it must be. */
  async function skuCallerOf(req: Request): Promise<MonetizationCaller> {
    const principal = await auth.authenticate(req);
    assertMayReadEntitlements(principal, principal.applicationId, true);
    return {
      applicationId: principal.applicationId,
      userId: principal.kind === 'bearer' ? principal.userId : '',
    };
  }

  const listSubscriptions: RequestHandler = async (req, res) => {
    const caller = await skuCallerOf(req);
    const skuId = snowflakeParam(req, 'sku_id');
    sendJson(res, 200, await monetization.listSkuSubscriptions(caller, skuId, queryOf(req)));
  };

  const getSubscription: RequestHandler = async (req, res) => {
    const caller = await skuCallerOf(req);
    const skuId = snowflakeParam(req, 'sku_id');
    const subscriptionId = snowflakeParam(req, 'subscription_id');
    sendJson(res, 200, await monetization.getSkuSubscription(caller, skuId, subscriptionId));
  };

  const app = '/applications/:application_id';
  return [
    { method: 'get', path: `${app}/skus`, handlers: [listSkus], credential: 'token' },
    { method: 'get', path: `${app}/entitlements`, handlers: [listEntitlements], credential: 'token' },
    { method: 'post', path: `${app}/entitlements`, handlers: [...readBody, createTest], credential: 'token' },
    {
      method: 'get',
      path: `${app}/entitlements/:entitlement_id`,
      handlers: [getEntitlement],
      credential: 'token',
    },
    {
      method: 'delete',
      path: `${app}/entitlements/:entitlement_id`,
      handlers: [deleteTest],
      credential: 'token',
    },
    {
      method: 'post',
      path: `${app}/entitlements/:entitlement_id/consume`,
      handlers: [consume],
      credential: 'token',
    },
    {
      method: 'get',
      path: `/users/@me${app}/entitlements`,
      handlers: [myEntitlements],
      credential: 'token',
    },
    {
      method: 'get',
      path: '/skus/:sku_id/subscriptions',
      handlers: [listSubscriptions],
      credential: 'token',
    },
    {
      method: 'get',
      path: '/skus/:sku_id/subscriptions/:subscription_id',
      handlers: [getSubscription],
      credential: 'token',
    },
  ];
}
