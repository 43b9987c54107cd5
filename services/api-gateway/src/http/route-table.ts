import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { match } from 'path-to-regexp';
import { DiscordError, NotFoundError } from '@acs/discord-errors';
import type { RateLimiter, RouteCredential, RouteLimitOptions } from './rate-limiter';
import type { RequestRecorder } from './record-requests';
import { sendJson } from './send-json';

/** One route: method, Express path pattern and its handlers. */
export interface Route {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  handlers: RequestHandler[];
  /**
   * What its Authorization header carries, when the route authenticates with it: the rate
   * limits count a caller whose header resolves by its credential, anyone else by address.
   */
  credential?: RouteCredential;
  /** How the rate limits count it beyond its own buckets (the global window applies unless said). */
  rateLimit?: RouteLimitOptions;
}

/**
 * Registers routes (each behind the rate limiter, when given, and recorded by the
 * recorder, when given: logged from before the limiter, faults injected after it) and
 * then the fallbacks the real API has: `405: Method Not Allowed` for a known path with
 * another method, `404: Not Found` for anything else.
 */
export function mountRoutes(
  app: Express,
  base: string,
  routes: Route[],
  limiter?: RateLimiter,
  recorder?: RequestRecorder,
): void {
  const matchers = routes.map((r) => ({ method: r.method, test: match(base + r.path, { decode: false }) }));
  for (const route of routes) {
    const limit = limiter
      ? [limiter.forRoute(`${route.method.toUpperCase()} ${route.path}`, route.credential, route.rateLimit)]
      : [];
    const record = recorder ? [recorder.record(base, route)] : [];
    const inject = recorder ? [recorder.injectFaults(base, route)] : [];
    app[route.method](base + route.path, ...record, ...limit, ...inject, ...route.handlers);
  }
  app.use(base, (req: Request, _res: Response, next: NextFunction) => {
    const path = base + req.path.replace(/\/$/, '');
    const known = matchers.some((m) => m.test(path) !== false);
    next(known ? new DiscordError(405, 0, '405: Method Not Allowed') : new NotFoundError());
  });
}

/** The 404 for paths outside every API base. */
export function notFound(_req: Request, res: Response): void {
  sendJson(res, 404, { code: 0, message: '404: Not Found' });
}
