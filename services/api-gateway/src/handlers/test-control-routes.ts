import type { RequestHandler } from 'express';
import { DiscordError, fieldError, NotFoundError, readPathSnowflake } from '@acs/discord-errors';
import type { OAuthClient } from '../clients/oauth-client';
import { readFaultRequest } from '../domain/read-fault-request';
import { integerQuery, snowflakeParam, snowflakeQuery } from '../http/path-params';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';
import type { TestControl } from '../store/create-test-control';
import { FaultIdTakenError, MAX_FAULTS_PER_APPLICATION } from '../store/fault-store';

export type { TestControl } from '../store/create-test-control';

/** The most entries one page of the request log holds (and its default). */
export const MAX_REQUESTS_PAGE = 1000;
const DEFAULT_REQUESTS_PAGE = 100;

/** 503 when the store (Redis) cannot answer: the admin call fails, never as a 500. */
async function fromStore<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch {
    throw new DiscordError(503, 0, '503: Service Unavailable');
  }
}

/**
 * The test-control routes of the admin API: an application's request log
 * (`GET …/requests?limit=&before=`, newest first) and its faults (`POST`, `GET`,
 * `DELETE …/faults[/{fault_id}]`). Each first checks that the application exists
 * (404 / 10002 otherwise).
 */
export function testControlRoutes(
  oauth: OAuthClient,
  control: TestControl,
  w: (...handlers: RequestHandler[]) => RequestHandler[],
): Route[] {
  /** The path's application, which must exist. */
  async function applicationOf(req: Parameters<RequestHandler>[0]): Promise<string> {
    const applicationId = snowflakeParam(req, 'application_id');
    await oauth.getApplication(applicationId);
    return applicationId;
  }

  return [
    {
      method: 'get',
      path: '/applications/:application_id/requests',
      handlers: w(async (req, res) => {
        const limit = integerQuery(req, 'limit', 1, MAX_REQUESTS_PAGE) ?? DEFAULT_REQUESTS_PAGE;
        const before = snowflakeQuery(req, 'before');
        const applicationId = await applicationOf(req);
        const entries = await fromStore(() =>
          control.log.list(applicationId, { limit, ...(before ? { before } : {}) }),
        );
        sendJson(res, 200, entries);
      }),
    },
    {
      method: 'post',
      path: '/applications/:application_id/faults',
      handlers: w(async (req, res) => {
        const applicationId = snowflakeParam(req, 'application_id');
        const request = readFaultRequest(req.body);
        await oauth.getApplication(applicationId);
        const existing = await fromStore(() => control.faults.list(applicationId));
        if (existing.length >= MAX_FAULTS_PER_APPLICATION)
          throw fieldError(
            'route',
            'FAULT_LIMIT',
            `At most ${MAX_FAULTS_PER_APPLICATION} faults per application.`,
          );
        const fault = await fromStore(async () => {
          for (;;) {
            try {
              return await control.faults.add(applicationId, { id: control.ids.next(), ...request });
            } catch (error) {
              if (!(error instanceof FaultIdTakenError)) throw error;
            }
          }
        });
        sendJson(res, 201, fault);
      }),
    },
    {
      method: 'get',
      path: '/applications/:application_id/faults',
      handlers: w(async (req, res) => {
        const applicationId = await applicationOf(req);
        sendJson(res, 200, await fromStore(() => control.faults.list(applicationId)));
      }),
    },
    {
      method: 'delete',
      path: '/applications/:application_id/faults',
      handlers: w(async (req, res) => {
        const applicationId = await applicationOf(req);
        await fromStore(() => control.faults.clear(applicationId));
        sendNoContent(res);
      }),
    },
    {
      method: 'delete',
      path: '/applications/:application_id/faults/:fault_id',
      handlers: w(async (req, res) => {
        const faultId = readPathSnowflake('fault_id', String(req.params.fault_id ?? ''));
        const applicationId = await applicationOf(req);
        if (!(await fromStore(() => control.faults.clear(applicationId, faultId)))) throw new NotFoundError();
        sendNoContent(res);
      }),
    },
  ];
}
