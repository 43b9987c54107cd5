import { callApi, describeError } from '../http/call-api';

/** One REST call the world's app made, as ACS logged it (no token or secret in it). */
export interface RequestEntry {
  id: string;
  /** ISO 8601, when the call arrived. */
  timestamp: string;
  method: string;
  /** The route template, e.g. `POST /channels/{channel_id}/messages`. */
  route: string;
  /** The concrete path and query, tokens redacted. */
  path: string;
  status: number;
  /** Discord's error body when the status is not 2xx. */
  // Discord's JSON of any shape: callers read fields off it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  error: any;
  /** The rate-limit bucket the answer named. */
  bucket: string | null;
  duration_ms: number;
  /** Fields of the body ACS ignored (`X-ACS-Warnings`). */
  warnings: string[];
  /** The injected fault that answered the call, if one did. */
  fault_id: string | null;
}

/** A fault to inject: the app's next `times` calls matching `route` fail as told. */
export interface FaultOptions {
  /** Method and path pattern, e.g. `POST /channels/:id/messages` (`*` for any method or the rest of a path). */
  route: string;
  /** 429 (with Retry-After and Discord's rate-limit body), 500, 502, 503… */
  status: number;
  /** How many calls fail (1-1000; default 1). */
  times?: number;
  /** The body to answer with instead of Discord's for the status. */
  body?: Record<string, unknown>;
  /** How long to wait before answering (0-30000 ms). */
  delayMs?: number;
}

/** An injected fault as ACS keeps it. */
export interface InjectedFault {
  id: string;
  route: string;
  status: number;
  times: number;
  remaining: number;
  delay_ms: number;
  body?: Record<string, unknown>;
}

interface Admin {
  base: string;
  adminToken: string;
  applicationId: string;
}

/** The app's REST calls, oldest first (the admin API lists them newest first). */
export async function fetchRequests({ base, adminToken, applicationId }: Admin): Promise<RequestEntry[]> {
  const answer = await callApi(base, 'GET', `/admin/applications/${applicationId}/requests?limit=1000`, {
    token: `Admin ${adminToken}`,
  });
  if (answer.status !== 200)
    throw new Error(`could not read the app's request log:\n${describeError(answer)}`);
  return (answer.body as RequestEntry[]).reverse();
}

/** Injects a fault for the app; throws with ACS's answer when it refuses it. */
export async function injectFault(
  { base, adminToken, applicationId }: Admin,
  { route, status, times = 1, body, delayMs }: FaultOptions,
): Promise<InjectedFault> {
  const answer = await callApi(base, 'POST', `/admin/applications/${applicationId}/faults`, {
    token: `Admin ${adminToken}`,
    body: {
      route,
      status,
      times,
      ...(body ? { body } : {}),
      ...(delayMs !== undefined ? { delay_ms: delayMs } : {}),
    },
  });
  if (answer.status !== 201) throw new Error(`could not inject the fault:\n${describeError(answer)}`);
  return answer.body as InjectedFault;
}

/** Removes the app's faults (all, or the one of `faultId`). */
export async function clearFaults(
  { base, adminToken, applicationId }: Admin,
  faultId?: string,
): Promise<void> {
  const route = `/admin/applications/${applicationId}/faults${faultId ? `/${faultId}` : ''}`;
  const answer = await callApi(base, 'DELETE', route, { token: `Admin ${adminToken}` });
  if (answer.status !== 204) throw new Error(`could not clear the faults:\n${describeError(answer)}`);
}

/** The request log as transcript lines: each call, its status and time, its warnings and error. */
export function describeRequests(entries: readonly RequestEntry[]): string[] {
  if (entries.length === 0) return [];
  const lines = [`REST calls of the app (${entries.length}, oldest first):`];
  for (const entry of entries) {
    const time = entry.timestamp.slice(11, 23);
    const fault = entry.fault_id ? ` (injected fault ${entry.fault_id})` : '';
    lines.push(
      `  ${time} ${entry.method} ${entry.path} → ${entry.status} in ${entry.duration_ms} ms${fault}`,
    );
    for (const warning of entry.warnings) lines.push(`      ⚠ ${warning}`);
    if (entry.error) lines.push(...describeEntryError(entry).map((l) => `      ✗ ${l}`));
  }
  return lines;
}

/** An entry's error as lines: a 429 with its wait (its body has no code), else Discord's error tree. */
function describeEntryError({ status, error }: RequestEntry): string[] {
  if (error?.code === undefined && typeof error?.retry_after === 'number')
    return [
      `HTTP ${status}: ${error.message} (retry after ${error.retry_after} s${error.global ? ', global' : ''})`,
    ];
  return describeError({ status, body: error }).split('\n');
}
