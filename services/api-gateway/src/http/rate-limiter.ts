import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { DiscordError, type DiscordErrorBody } from '@acs/discord-errors';
import {
  createLimitCounters,
  type CountedLimit,
  type LimitCounters,
  type WindowCount,
} from '../store/limit-counters';
import { clientOf } from './client-of';

/** Limits of the public API (D: topics/rate-limits). */
export interface RateLimits {
  /** Requests per second per credential across all routes (Discord: 50 per bot); 0 = off. */
  globalPerSecond: number;
  /** Requests per credential, per route and top-level resource, in each window; 0 = off. */
  routeLimit: number;
  routeWindowSeconds: number;
  /**
   * The own limits of named buckets (RouteLimitOptions.bucket), per credential and top-level
   * resource in each window, in place of `routeLimit` (counted only while `routeLimit` is
   * on); a bucket not named here counts with `routeLimit`.
   */
  buckets?: Record<string, { limit: number; windowSeconds: number }>;
  /**
   * Units of work per caller in each second, which the routes with a cost
   * (RouteLimitOptions.cost) spend: an invocation costs many requests' worth, so the
   * limits bound what a caller makes the stack do, not only how often it asks. 0 = off.
   */
  workPerSecond?: number;
  /** The work budget's window in seconds (1 unless said: tests lengthen it so that none rolls mid-test). */
  workWindowSeconds?: number;
  /** The units of work of each named cost (RouteLimitOptions.cost); a cost not named here is 0. */
  costs?: Record<string, number>;
}

/** 429 with Discord's body `{message, retry_after, global}` (no `code`, as the real API sends it). */
export class RateLimitedError extends DiscordError {
  constructor(
    readonly retryAfter: number,
    readonly global: boolean,
  ) {
    super(429, 0, 'You are being rate limited.');
  }

  override toBody(): DiscordErrorBody {
    return {
      message: this.message,
      retry_after: this.retryAfter,
      global: this.global,
    } as unknown as DiscordErrorBody;
  }
}

/**
 * Sets the headers of a 429 and returns its error, for the one renderer to write:
 * `Retry-After` (whole seconds, rounded up), `X-RateLimit-Scope`, `X-RateLimit-Global` when
 * global, and `Via`, without which discord.py takes a 429 for a Cloudflare ban and raises
 * instead of waiting (real-clients.md, 429 responses).
 */
export function markRateLimited(
  res: Response,
  retryAfter: number,
  scope: 'user' | 'global',
): RateLimitedError {
  const seconds = Math.max(retryAfter, 0.001);
  res.setHeader('Retry-After', String(Math.ceil(seconds)));
  res.setHeader('X-RateLimit-Scope', scope);
  if (scope === 'global') res.setHeader('X-RateLimit-Global', 'true');
  res.setHeader('Via', '1.1 acs');
  return new RateLimitedError(Number(seconds.toFixed(3)), scope === 'global');
}

/**
 * Discord's top-level resources (major parameters), which partition a route's buckets: a
 * guild's commands are counted apart from another guild's. The first group whose
 * parameters the route has decides. A webhook is its id and token together ("webhook_id
 * + webhook_token", D: topics/rate-limits), which an interaction's webhook routes share
 * (the application id is the webhook id there). The callback route is partitioned the
 * same way, by interaction id and token: an app answering many interactions at once is
 * counted per interaction, as @discordjs/rest expects (it sends callbacks at once,
 * without queueing them behind a shared bucket).
 */
const MAJOR_PARAMETERS = [
  ['guild_id'],
  ['channel_id'],
  ['webhook_id', 'webhook_token'],
  ['interaction_id', 'interaction_token'],
];

/**
 * What a route takes in its Authorization header, if anything: a token, a token or a
 * user's session, or a user's session only.
 */
export type RouteCredential = 'token' | 'token-or-session' | 'session';

/** How a route is counted beyond its own buckets. */
export interface RouteLimitOptions {
  /**
   * Whether the caller's global window applies (true by default). Interaction routes are
   * exempt, as on Discord (D: topics/rate-limits: "Interaction endpoints are not bound to
   * the bot's Global Rate Limit"): an app answering many interactions is never held back
   * by its other requests, nor they by it.
   */
  global?: boolean;
  /**
   * The bucket the route counts in, when routes share one: their requests are counted
   * together per caller and top-level resource, answer one `X-RateLimit-Bucket`, and take
   * the bucket's own limit (RateLimits.buckets). Discord counts the reaction routes of a
   * channel this way, at a limit of their own (1 per 0.25 s as the libraries observe it).
   */
  bucket?: string;
  /**
   * The path parameter (a token) whose value alone partitions the bucket, whoever calls:
   * Discord limits a webhook per webhook, not per client, so that an interaction's token
   * sending from many addresses is still one bucket. Routes naming the same bucket and a
   * parameter holding the same token (an interaction's callback and its webhook routes)
   * count together. Only with `bucket`.
   */
  partitionBy?: string;
  /**
   * The name of what one request costs (its units in RateLimits.costs) in the caller's
   * work budget (RateLimits.workPerSecond), past its route's limits: a request whose work
   * is far above a read's (an invocation: permissions, command, delivery, signature,
   * outcome) says so here. Unset: none.
   */
  cost?: string;
}

/**
 * Who a request is counted as, for a route that takes a credential: the credential's key
 * when it resolves to a principal, undefined otherwise. A credential not known yet is
 * looked up only when `lookup` resolves true.
 */
export type IdentifyCaller = (
  req: Request,
  options: { allowUserSession: boolean; sessionOnly?: boolean; lookup: () => Promise<boolean> },
) => Promise<string | undefined>;

/**
 * Fixed-window counters per caller: one global window of a second (which interaction
 * routes are exempt from), one per route and major parameter (or, for a bucket
 * partitioned by a token, per token whoever calls), and a work budget a second that the
 * routes with a cost spend (an invocation: many requests' worth). The caller is the
 * credential (its key, the same for every spelling of one token) when the Authorization
 * header is a credential of the route that resolves to a principal; otherwise — no
 * header, a route that takes none, a malformed, unknown or unresolvable one — the
 * client's address (`req.ip`, IPv6 by its /64), so that a client rotating made-up headers
 * is one caller, not a fresh bucket per header. A credential not known yet is looked up
 * (one shared ResolveToken) only while its address is within its limits: an address that
 * spent them gets its 429 without costing oauth a call.
 *
 * Every answer carries the route bucket's `X-RateLimit-*` headers; a 429 also carries
 * `Retry-After`, `X-RateLimit-Scope`, `X-RateLimit-Global` when global, and `Via`
 * (discord.py treats a 429 without `Via` as a Cloudflare ban). The counters are the
 * `counters` given: in Redis, shared by every replica (each counting its share in memory
 * while Redis is unreachable), or in this process's memory; keys, headers and bucket
 * hashes are the same with either.
 */
export class RateLimiter {
  private readonly global: CountedLimit | undefined;
  private readonly route: CountedLimit | undefined;
  /** The counters of the buckets with a limit of their own, by name, made on first use. */
  private readonly buckets = new Map<string, { counted: CountedLimit; limit: number }>();
  private readonly work: CountedLimit | undefined;

  constructor(
    private readonly limits: RateLimits,
    private readonly identify: IdentifyCaller = async () => undefined,
    private readonly counters: LimitCounters = createLimitCounters({ keyPrefix: '', replicas: 1 }),
  ) {
    this.global =
      limits.globalPerSecond > 0 ? counters.limit('global', limits.globalPerSecond, 1) : undefined;
    this.route =
      limits.routeLimit > 0
        ? counters.limit('route', limits.routeLimit, limits.routeWindowSeconds)
        : undefined;
    this.work =
      (limits.workPerSecond ?? 0) > 0
        ? counters.limit('work', limits.workPerSecond ?? 0, limits.workWindowSeconds ?? 1)
        : undefined;
  }

  /**
   * The middleware for one route; `routeId` is its method and path pattern, `credential`
   * what it takes, `options` whether the global window applies.
   */
  forRoute(route: string, credential?: RouteCredential, options: RouteLimitOptions = {}): RequestHandler {
    // A shared bucket is counted under its name; a route alone under its method and path.
    const routeId = options.bucket === undefined ? route : `bucket:${options.bucket}`;
    const bucket = createHash('sha256').update(routeId).digest('hex').slice(0, 32);
    const global = options.global ?? true;
    const counted = this.countedFor(options.bucket);
    const partitionBy = options.bucket === undefined ? undefined : options.partitionBy;
    const cost = options.cost === undefined ? 0 : (this.limits.costs?.[options.cost] ?? 0);
    return (req, res, next) => {
      this.callerOf(req, routeId, credential, global, counted?.counted)
        .then((caller) =>
          this.check(req, res, { caller, routeId, bucket, global, counted, partitionBy, cost }),
        )
        .then(() => next(), next);
    };
  }

  /** The counter and limit of a route's bucket: its own, or the route limit's (undefined when off). */
  private countedFor(name: string | undefined): { counted: CountedLimit; limit: number } | undefined {
    if (!this.route) return undefined;
    const own = name === undefined ? undefined : this.limits.buckets?.[name];
    if (name === undefined || !own || own.limit <= 0) {
      return { counted: this.route, limit: this.limits.routeLimit };
    }
    let counted = this.buckets.get(name);
    if (!counted) {
      counted = {
        counted: this.counters.limit(`bucket:${name}`, own.limit, own.windowSeconds),
        limit: own.limit,
      };
      this.buckets.set(name, counted);
    }
    return counted;
  }

  private async callerOf(
    req: Request,
    routeId: string,
    credential: RouteCredential | undefined,
    global: boolean,
    counted: CountedLimit | undefined,
  ): Promise<string> {
    const address = `ip:${clientOf(req.ip) ?? ''}`;
    if (credential === undefined || !req.headers.authorization) return address;
    const key = await this.identify(req, {
      allowUserSession: credential !== 'token',
      sessionOnly: credential === 'session',
      lookup: async () => !(await this.isSpent(address, routeId, req, global, counted)),
    });
    return key ?? address;
  }

  /** Whether a caller has no request left in its global window (where it applies) or this route's. */
  private async isSpent(
    caller: string,
    routeId: string,
    req: Request,
    global: boolean,
    counted: CountedLimit | undefined,
  ): Promise<boolean> {
    const [globalWindow, routeWindow] = await Promise.all([
      global ? this.global?.peek(caller) : undefined,
      counted?.peek(`${caller}:${routeId}:${majorOf(req)}`),
    ]);
    return globalWindow?.allowed === false || routeWindow?.allowed === false;
  }

  private async check(
    req: Request,
    res: Response,
    route: {
      caller: string;
      routeId: string;
      bucket: string;
      global: boolean;
      counted: { counted: CountedLimit; limit: number } | undefined;
      partitionBy: string | undefined;
      cost: number;
    },
  ): Promise<void> {
    const { caller, routeId, bucket, global, counted } = route;
    if (counted) {
      // A bucket partitioned by a token counts every caller of that token together.
      const key =
        route.partitionBy === undefined
          ? `${caller}:${routeId}:${majorOf(req)}`
          : `${routeId}:${hashOf(String(req.params[route.partitionBy] ?? ''))}`;
      const window = await counted.counted.hit(key);
      setWindowHeaders(res, counted.limit, window, bucket);
      if (!window.allowed) throw markRateLimited(res, window.resetAfterMs / 1000, 'user');
    }
    if (global && this.global) {
      const window = await this.global.hit(caller);
      if (!window.allowed) throw markRateLimited(res, window.resetAfterMs / 1000, 'global');
    }
    if (route.cost > 0 && this.work) {
      // The headers then tell the route's requests left in the caller's work budget.
      const window = await this.work.hit(caller, route.cost);
      const perSecond = this.limits.workPerSecond ?? 0;
      setWindowHeaders(
        res,
        Math.floor(perSecond / route.cost),
        { ...window, remaining: Math.floor(window.remaining / route.cost) },
        bucket,
      );
      if (!window.allowed) throw markRateLimited(res, window.resetAfterMs / 1000, 'user');
    }
  }
}

/** A bucket's `X-RateLimit-*` headers, after a hit of its window. */
function setWindowHeaders(res: Response, limit: number, window: WindowCount, bucket: string): void {
  const resetAfter = window.resetAfterMs / 1000;
  res.setHeader('X-RateLimit-Limit', String(limit));
  res.setHeader('X-RateLimit-Remaining', String(window.remaining));
  res.setHeader('X-RateLimit-Reset', (Date.now() / 1000 + resetAfter).toFixed(3));
  res.setHeader('X-RateLimit-Reset-After', resetAfter.toFixed(3));
  res.setHeader('X-RateLimit-Bucket', bucket);
}

/** A credential in a counter's key: its hash, never the credential itself. */
function hashOf(value: string): string {
  return createHash('sha256').update(value).digest('base64');
}

/**
 * The route's top-level resource, whose requests are counted apart. A webhook's or an
 * interaction's token is a credential: the key holds its hash, never the token itself.
 */
function majorOf(req: Request): string {
  for (const group of MAJOR_PARAMETERS) {
    const values = group.map((p) => req.params[p]).filter((v) => v !== undefined);
    if (values.length === 0) continue;
    return group.length === 1 ? String(values[0]) : hashOf(values.join('/'));
  }
  return '';
}
