import type { Server } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { BlobStore } from '@acs/blob-store';
import { recordHttpMetrics, type Logger } from '@acs/service-kit';
import type { Authenticator } from './auth/create-authenticator';
import type { PeerClients } from './clients/peer-clients';
import { createHttpServer, type HttpTimeouts } from './http/create-http-server';
import { mountHealthRoutes } from './http/health-routes';
import { limitRequestTime } from './http/limit-request-time';
import { readJsonBody } from './http/read-json-body';
import { InvalidRequestLimiter, type InvalidRequestLimits } from './http/invalid-request-limiter';
import { ApplicationRateLimiter } from './http/application-rate-limiter';
import { RateLimiter, type RateLimits } from './http/rate-limiter';
import type { TrustProxy } from './domain/read-trust-proxy';
import { createLimitCounters, type LimitCounters } from './store/limit-counters';
import { refuseNulQuery } from './http/refuse-bad-text';
import { createErrorRenderer } from './http/render-error';
import { mountRoutes, notFound } from './http/route-table';
import { RequestRecorder } from './http/record-requests';
import { createTestControl, type TestControl } from './store/create-test-control';
import { mountConsole } from './http/console-routes';
import { setSecurityHeaders } from './http/set-security-headers';
import { adminRoutes } from './handlers/admin-routes';
import { commandGuildIndexRoutes } from './handlers/command-guild-index-routes';
import {
  ATTACHMENT_MISS_LIMIT,
  ATTACHMENT_MISS_WINDOW_SECONDS,
  attachmentRoutes,
  refreshAttachmentUrlRoutes,
} from './handlers/attachment-routes';
import { commandIndexRoutes } from './handlers/command-index-routes';
import { commandPermissionRoutes } from './handlers/command-permission-routes';
import { commandRoutes } from './handlers/command-routes';
import { guildCreationRoutes } from './handlers/guild-creation-routes';
import { messageRoutes } from './handlers/message-routes';
import { messageSearchRoutes } from './handlers/message-search-routes';
import { pinRoutes } from './handlers/pin-routes';
import { autoModRoutes } from './handlers/automod-routes';
import { reactionRoutes } from './handlers/reaction-routes';
import { dmChannelRoutes } from './handlers/dm-channel-routes';
import { guildMemberRoutes } from './handlers/guild-member-routes';
import { voiceStatusRoutes } from './handlers/voice-status-routes';
import { guildChannelRoutes } from './handlers/guild-channel-routes';
import { gatewayRoutes } from './handlers/gateway-routes';
import { interactionRoutes } from './handlers/interaction-routes';
import { monetizationRoutes } from './handlers/monetization-routes';
import { provisionalAccountRoutes } from './handlers/provisional-account-routes';
import { lobbyRoutes, type LobbyRateLimits } from './handlers/lobby-routes';
import { oauth2Routes } from './handlers/oauth2-routes';
import { openIdRoutes } from './handlers/openid-routes';
import { createIssuerOf } from './http/issuer-of';
import { userRoutes } from './handlers/user-routes';

/** What api-gateway's HTTP server is built from. */
export interface ServerDeps {
  /** The services it calls, through their typed clients. */
  clients: PeerClients;
  auth: Authenticator;
  logger: Logger;
  adminToken: string;
  maxBodyBytes: number;
  /** How long a request's calls to services may take in all (each call's deadline ends by then). */
  requestDeadlineMs: number;
  /** How fast one client address may have large bodies read (bytes a second); unset: one at a time, unpaced. */
  largeBodyBytesPerSecond?: number;
  rateLimits: RateLimits;
  /** The lobby development limits per application; off when not given. */
  lobbyRateLimits?: LobbyRateLimits;
  invalidRequestLimits: InvalidRequestLimits;
  /**
   * Where the request log and the injected faults are kept (Redis, shared by the
   * replicas); unset: in this process's memory.
   */
  testControl?: TestControl;
  /** Where both limits count (Redis, shared by the replicas); unset: in this process's memory. */
  limitCounters?: LimitCounters;
  /** Express's `trust proxy`: which hops may name the client (`req.ip`) in `X-Forwarded-For`. */
  trustProxy: TrustProxy;
  isDraining: () => boolean;
  /** Node's limits on how long a client may take to send its request. */
  httpTimeouts: HttpTimeouts;
  /**
   * Where messages' files go (multipart bodies) and are served from (`/attachments/…`).
   * Without it, a file part is refused and no attachment is served.
   */
  blobs?: BlobStore;
  /** The stack's public base URL for attachments' `url`; unset: each request's own scheme and host. */
  publicBaseUrl?: string;
  /** The console's build output, served at `/console/`; unset: no console. */
  consoleDir?: string;
}

/**
 * Routes name `@me` literally, while clients may send it percent-encoded: discord-api-types
 * encodes route parameters, so `Routes.user('@me')` is `/users/%40me`, which the real API
 * serves. Decoding `%40` in the path (never in the query) lets both spellings match.
 */
function decodeAtSign(req: Request, _res: Response, next: NextFunction): void {
  const query = req.url.indexOf('?');
  const path = query < 0 ? req.url : req.url.slice(0, query);
  if (/%40/i.test(path)) req.url = path.replace(/%40/gi, '@') + (query < 0 ? '' : req.url.slice(query));
  next();
}

/** Lobby limits when none are configured (tests that build the server themselves). */
const NO_LOBBY_LIMITS: LobbyRateLimits = {
  write: { limit: 0, windowSeconds: 1 },
  link: { limit: 0, windowSeconds: 1 },
};

/** Builds the Express app: health, `/api/v10`, `/admin`, the 404/405 fallbacks and the one error renderer. */
function createApp(deps: ServerDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxy);
  const readBody = readJsonBody(deps.maxBodyBytes, deps.largeBodyBytesPerSecond);
  const counters = deps.limitCounters ?? createLimitCounters({ keyPrefix: '', replicas: 1 });
  const invalidRequests =
    deps.invalidRequestLimits.limit > 0
      ? new InvalidRequestLimiter(deps.invalidRequestLimits, counters)
      : undefined;

  // First, so that every answer counts (the limiter's 429s, the 404s, the error renderer's).
  app.use(recordHttpMetrics());
  app.use(setSecurityHeaders);
  app.use(limitRequestTime(deps.requestDeadlineMs));
  app.use(decodeAtSign);
  mountHealthRoutes(app, deps.clients, deps.isDraining);
  // After the probes, which a blocked address must not fail; before every route, so that a
  // blocked address is refused whatever it asks and whichever token it sends.
  if (invalidRequests) app.use(invalidRequests.refuseBlocked);
  app.use(refuseNulQuery);
  if (deps.consoleDir) {
    const served = mountConsole(app, {
      dir: deps.consoleDir,
      gatewayUrl: () => deps.clients.dispatcher.gatewayUrl(),
    });
    if (!served)
      deps.logger.warn({ dir: deps.consoleDir }, 'the console is not built: /console/ is not served');
  }
  const limiter = new RateLimiter(deps.rateLimits, deps.auth.identify, counters);
  const control = deps.testControl ?? createTestControl({ keyPrefix: '', requestLogSize: 1000 });
  const recorder = new RequestRecorder({
    auth: deps.auth,
    ...control,
    callbackApplication: (interactionId, token) =>
      deps.clients.interactions.getCallbackApplication(interactionId, token),
  });
  const uploads = deps.blobs
    ? {
        blobs: deps.blobs,
        maxPayloadBytes: deps.maxBodyBytes,
        ...(deps.publicBaseUrl ? { publicBaseUrl: deps.publicBaseUrl } : {}),
      }
    : undefined;
  const interactions = interactionRoutes(deps.clients, deps.auth, readBody, uploads);
  const issuerOf = createIssuerOf(deps.publicBaseUrl);
  const openId = openIdRoutes(deps.clients, issuerOf);
  // One table per base path, so that its 404/405 fallbacks know every route of it.
  mountRoutes(
    app,
    '/api/v10',
    [
      // Before commandRoutes: `…/commands/permissions` must not match `…/commands/:command_id`.
      ...commandPermissionRoutes(deps.clients, deps.auth, readBody),
      ...commandIndexRoutes(deps.clients, deps.auth),
      ...commandRoutes(deps.clients, deps.auth, readBody),
      ...commandGuildIndexRoutes(deps.clients, deps.auth),
      ...gatewayRoutes(deps.clients, deps.auth),
      ...interactions.invocation,
      ...interactions.responses,
      ...oauth2Routes(deps.clients, deps.auth, readBody, deps.maxBodyBytes, issuerOf),
      ...openId.api,
      ...userRoutes(deps.clients, deps.auth),
      ...dmChannelRoutes(deps.clients, deps.auth, readBody),
      ...voiceStatusRoutes(deps.clients, deps.auth, readBody),
      ...guildMemberRoutes(deps.clients, deps.auth, readBody),
      ...guildCreationRoutes(deps.auth),
      ...pinRoutes(deps.clients, deps.auth),
      ...refreshAttachmentUrlRoutes(deps.clients, deps.auth, readBody),
      // After pinRoutes: `…/messages/pins` is no message id.
      ...reactionRoutes(deps.clients, deps.auth),
      ...messageRoutes(deps.clients, deps.auth, readBody, uploads),
      ...messageSearchRoutes(deps.clients, deps.auth),
      ...guildChannelRoutes(deps.clients, deps.auth, readBody),
      ...autoModRoutes(deps.clients, deps.auth, readBody),
      ...monetizationRoutes(deps.clients, deps.auth, readBody),
      ...provisionalAccountRoutes(deps.clients, deps.auth, readBody, issuerOf),
      ...lobbyRoutes(deps.clients.lobby, deps.auth, readBody, {
        limiter: new ApplicationRateLimiter(counters),
        lobby: deps.lobbyRateLimits ?? NO_LOBBY_LIMITS,
      }),
    ],
    limiter,
    recorder,
  );
  // ACS serves API v10. The chat client (and the tools that act as it) invokes commands
  // through API v9: that one route is served there too, in the same rate-limit windows as
  // under v10 (one limiter, one route id). The rest of v9 is not served: 404.
  mountRoutes(app, '/api/v9', interactions.invocation, limiter, recorder);
  // OpenID Connect discovery, at the site root as a JOSE library expects it (facts A.6).
  mountRoutes(app, '/.well-known', openId.wellKnown, limiter);
  mountRoutes(app, '/admin', [
    ...adminRoutes(deps.clients, deps.auth, readBody, deps.adminToken, control, issuerOf),
  ]);
  // Discord's CDN path for message attachments, outside the API's base.
  if (deps.blobs) {
    const misses = counters.limit('attachment-miss', ATTACHMENT_MISS_LIMIT, ATTACHMENT_MISS_WINDOW_SECONDS);
    mountRoutes(app, '/attachments', attachmentRoutes(deps.clients, deps.blobs, misses));
  }
  app.use(notFound);
  if (invalidRequests) app.use(invalidRequests.countInvalid);
  app.use(createErrorRenderer(deps.logger));
  return app;
}

/** api-gateway's HTTP server (the Express app with Node's timeouts set for an API), not yet listening. */
export function createServer(deps: ServerDeps): Server {
  return createHttpServer(createApp(deps), deps.httpTimeouts);
}
