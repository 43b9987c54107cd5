import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler, Response } from 'express';
import { isSnowflake, type SnowflakeGenerator } from '@acs/snowflake';
import type { Authenticator } from '../auth/create-authenticator';
import { isWellFormedInteractionToken } from '../domain/interaction-token';
import { findBodyWarnings, formatWarningsHeader } from '../domain/find-body-warnings';
import { matchesFaultRoute, parseFaultRoute } from '../domain/fault-route';
import { KNOWN_BODY_FIELDS } from '../domain/known-body-fields';
import type { Fault, FaultStore } from '../store/fault-store';
import type { RequestLog } from '../store/request-log';
import { sendJson } from './send-json';

/** A route's path parameters, by name. */
type PathParams = Record<string, string | string[] | undefined>;

/** The route a recorder wraps: its method, Express path and what its Authorization header carries. */
export interface RecordedRoute {
  method: string;
  path: string;
}

/** The longest error body a log entry keeps (characters of its JSON). */
const MAX_ERROR_TEXT = 4096;
/** The longest path (with its query) a log entry keeps. */
const MAX_PATH_LENGTH = 500;
/** Path parameters and query keys whose values are credentials: never logged. */
const SECRET_NAME = /token|secret|password|code|key/i;
/** The interaction webhook routes, whose credential is the token in their path. */
const WEBHOOK_ROUTE = /^\/webhooks\/:webhook_id\/:webhook_token(\/|$)/;
/** The interaction callback route: its token names no application, the interactions service knows whose it is. */
const CALLBACK_ROUTE = '/interactions/:interaction_id/:interaction_token/callback';

/** What the recorder needs: who is calling, where entries and faults are kept, and entry ids. */
export interface RequestRecorderDeps {
  auth: Authenticator;
  log: RequestLog;
  faults: FaultStore;
  ids: SnowflakeGenerator;
  /**
   * The application of the interaction a refused callback named, its token checked
   * (interactions' GetCallbackApplication); a rejection: not attributed. An answered
   * callback's route says whose it was in `res.locals.callerApplicationId`.
   */
  callbackApplication?: (interactionId: string, token: string) => Promise<string>;
}

/**
 * The test-control layer of the public API's routes: each call an application makes (with
 * its bot token, one of its Bearer tokens, or its interaction tokens on the interaction
 * webhook routes and the callback route) is logged once answered, without the request
 * waiting for it (never the token: the path is logged with it redacted); a JSON
 * body's fields ACS does not act on are named in `X-ACS-Warnings`; and a call an injected
 * fault matches is answered by the fault instead of the route.
 */
export class RequestRecorder {
  private readonly faultIds = new WeakMap<Request, string>();

  constructor(private readonly deps: RequestRecorderDeps) {}

  /** Goes first, before the rate limiter: times the call, adds warnings, logs it when answered. */
  record(base: string, route: RecordedRoute): RequestHandler {
    const method = route.method.toUpperCase();
    const routeId = `${method} ${route.path}`;
    const template = `${method} ${route.path.replace(/:(\w+)/g, '{$1}')}`;
    const spec = KNOWN_BODY_FIELDS[routeId];
    return (req, res, next) => {
      // The route's parameters now: an error answered past the route (Express's error
      // handlers) finishes with `req.params` emptied.
      const params: PathParams = { ...req.params };
      const started = performance.now();
      const timestamp = new Date().toISOString();
      let warnings: string[] = [];
      let errorText = '';
      const writeHead = res.writeHead;
      res.writeHead = function (this: Response, ...args: unknown[]) {
        if (spec && req.body !== undefined && !res.headersSent) {
          warnings = findBodyWarnings(spec, req.body);
          if (warnings.length > 0) res.setHeader('X-ACS-Warnings', formatWarningsHeader(warnings));
        }
        return (writeHead as (...a: unknown[]) => Response).apply(this, args);
      } as typeof res.writeHead;
      const end = res.end;
      res.end = function (this: Response, ...args: unknown[]) {
        const chunk = args[0];
        if (res.statusCode >= 300 && (typeof chunk === 'string' || Buffer.isBuffer(chunk)))
          errorText = chunk.toString().slice(0, MAX_ERROR_TEXT + 1);
        return (end as (...a: unknown[]) => Response).apply(this, args);
      } as typeof res.end;
      res.once('finish', () => {
        void this.applicationOf(req, params, res, route.path, res.statusCode).then((applicationId) => {
          if (!applicationId) return;
          this.deps.log.append(applicationId, {
            id: this.deps.ids.next(),
            timestamp,
            method,
            route: template,
            path: redactedPath(req, params, base, route.path),
            status: res.statusCode,
            error: res.statusCode >= 300 ? readError(errorText) : null,
            bucket: headerText(res.getHeader('X-RateLimit-Bucket')),
            duration_ms: Math.round((performance.now() - started) * 10) / 10,
            warnings,
            fault_id: this.faultIds.get(req) ?? null,
          });
        });
      });
      next();
    };
  }

  /** Goes after the rate limiter: answers the call with the oldest fault of its app that matches it. */
  injectFaults(base: string, route: RecordedRoute): RequestHandler {
    return (req, res, next) => {
      this.faultTargetOf(req, route.path)
        .then(async (applicationId) => {
          if (!applicationId) return next();
          const path = req.path.slice(base.length);
          const fault = await this.deps.faults.take(applicationId, (candidate) => {
            const parsed = parseFaultRoute(candidate.route);
            return typeof parsed !== 'string' && matchesFaultRoute(parsed, req.method, path);
          });
          if (!fault) return next();
          this.faultIds.set(req, fault.id);
          if (fault.delay_ms > 0) await waitUnlessClosed(res, fault.delay_ms);
          if (!res.headersSent && !res.destroyed) answerWithFault(res, fault);
        })
        .catch(next);
    };
  }

  /** Whose tokens a call carries, as known before the route runs (never asking oauth). */
  private async faultTargetOf(req: Request, path: string): Promise<string | undefined> {
    if (WEBHOOK_ROUTE.test(path)) return webhookApplication(req.params);
    const principal = await this.deps.auth.knownPrincipal(req);
    return principal && principal.kind !== 'user' ? principal.applicationId : undefined;
  }

  /**
   * The application a call was made by, once answered. An interaction webhook route's is
   * the application in its path unless the token was refused (401: anyone may send it); the
   * callback route's is its interaction's, when the token was the interaction's.
   */
  private async applicationOf(
    req: Request,
    params: PathParams,
    res: Response,
    path: string,
    status: number,
  ): Promise<string | undefined> {
    if (WEBHOOK_ROUTE.test(path)) return status === 401 ? undefined : webhookApplication(params);
    if (path === CALLBACK_ROUTE) return this.callbackCaller(params, res);
    const principal = await this.deps.auth.knownPrincipal(req);
    return principal && principal.kind !== 'user' ? principal.applicationId : undefined;
  }

  /** Whose interaction a callback named: the route's note when it was taken, else asked (the token checked). */
  private async callbackCaller(params: PathParams, res: Response): Promise<string | undefined> {
    const noted: unknown = res.locals.callerApplicationId;
    if (typeof noted === 'string' && noted !== '') return noted;
    const interactionId = String(params.interaction_id ?? '');
    const token = String(params.interaction_token ?? '');
    const lookup = this.deps.callbackApplication;
    if (!lookup || !isSnowflake(interactionId) || !isWellFormedInteractionToken(token)) return undefined;
    return lookup(interactionId, token).catch(() => undefined);
  }
}

function webhookApplication(params: PathParams): string | undefined {
  const applicationId = String(params.webhook_id ?? '');
  const token = String(params.webhook_token ?? '');
  return isSnowflake(applicationId) && isWellFormedInteractionToken(token) ? applicationId : undefined;
}

function headerText(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** An error body as logged: its JSON, or its text when it is no JSON or was cut short. */
function readError(text: string): unknown {
  if (!text) return null;
  if (text.length > MAX_ERROR_TEXT) return { truncated: text.slice(0, MAX_ERROR_TEXT) };
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
}

/** The concrete path, rebuilt from the route's template with credentials' values redacted. */
export function redactedPath(req: Request, params: PathParams, base: string, template: string): string {
  const path = template.replace(/:(\w+)/g, (_, name: string) =>
    SECRET_NAME.test(name) ? '[redacted]' : encodeURIComponent(String(params[name] ?? '')),
  );
  const query = req.originalUrl.indexOf('?');
  let search = '';
  if (query >= 0) {
    const params = new URLSearchParams(req.originalUrl.slice(query + 1));
    for (const key of [...params.keys()]) if (SECRET_NAME.test(key)) params.set(key, '[redacted]');
    const text = params.toString();
    search = text ? `?${text}` : '';
  }
  return `${base}${path}${search}`.slice(0, MAX_PATH_LENGTH);
}

function waitUnlessClosed(res: Response, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    res.once('close', done);
    function done() {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    }
  });
}

/**
 * Answers as the fault says. A 429 is Discord's: `{message, retry_after, global}` (the
 * fault's body may set them), `Retry-After`, the `X-RateLimit-*` headers of an exhausted
 * bucket and `Via` (without which discord.py takes it for a Cloudflare ban). Another
 * status answers the fault's body, or Discord's `{message, code: 0}` for it.
 */
function answerWithFault(res: Response, fault: Fault): void {
  if (fault.status !== 429) {
    sendJson(
      res,
      fault.status,
      fault.body ?? { message: `${fault.status}: ${STATUS_CODES[fault.status] ?? 'Error'}`, code: 0 },
    );
    return;
  }
  const body = { message: 'You are being rate limited.', retry_after: 1, global: false, ...fault.body };
  const retryAfter = typeof body.retry_after === 'number' && body.retry_after >= 0 ? body.retry_after : 1;
  const global = body.global === true;
  res.setHeader('Retry-After', String(Math.ceil(retryAfter)));
  if (!res.getHeader('X-RateLimit-Limit')) res.setHeader('X-RateLimit-Limit', '1');
  res.setHeader('X-RateLimit-Remaining', '0');
  res.setHeader('X-RateLimit-Reset', (Date.now() / 1000 + retryAfter).toFixed(3));
  res.setHeader('X-RateLimit-Reset-After', retryAfter.toFixed(3));
  if (!res.getHeader('X-RateLimit-Bucket')) res.setHeader('X-RateLimit-Bucket', `fault-${fault.id}`);
  res.setHeader('X-RateLimit-Scope', global ? 'global' : 'user');
  if (global) res.setHeader('X-RateLimit-Global', 'true');
  res.setHeader('Via', '1.1 acs');
  sendJson(res, 429, body);
}
