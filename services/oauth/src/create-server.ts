import type { Pool } from 'pg';
import { loadOAuthProto } from '@acs/protos';
import { createGrpcServer, type GrpcServer, type Logger } from '@acs/service-kit';
import type { SnowflakeGenerator } from '@acs/snowflake';
import type { PermissionsClient } from './clients/permissions-client';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
} from './domain/limits';
import type { TokenLifetimes } from './domain/token-lifetimes';
import type { PrismaClient } from './generated/prisma/client';
import { createApplicationHandlers } from './handlers/application-handlers';
import { createAuthorizeHandlers } from './handlers/authorize-handlers';
import { createCurrentUserHandlers } from './handlers/current-user-handlers';
import { createDispatcherHandlers } from './handlers/dispatcher-handlers';
import { createGuildInstallationHandlers } from './handlers/guild-installation-handlers';
import type { HandlerDeps } from './handlers/handler-deps';
import { createInvocationHandlers } from './handlers/invocation-handlers';
import { createInstallationHandlers } from './handlers/installation-handlers';
import { createMonetizationHandlers } from './handlers/monetization-handlers';
import { createTokenEndpointHandlers } from './handlers/token-endpoint-handlers';
import { createTokenHandlers } from './handlers/token-handlers';
import { createUserHandlers } from './handlers/user-handlers';
import { ApplicationStore } from './store/application-store';
import { ConnectionStore } from './store/connection-store';
import { EventWebhookSettingsStore } from './store/event-webhook-settings-store';
import { GrantStore } from './store/grant-store';
import { InstallationStore } from './store/installation-store';
import { InvocationStore } from './store/invocation-store';
import { MonetizationStore } from './store/monetization-store';
import { TokenStore } from './store/token-store';
import { UserStore } from './store/user-store';

/** What oauth's gRPC server is built from. */
export interface ServerDeps {
  logger: Logger;
  prisma: PrismaClient;
  /** The pool under `prisma`; token lookups and DescribeInvocation use it directly. */
  pool: Pool;
  permissions: PermissionsClient;
  snowflakes: SnowflakeGenerator;
  /** Whether the service can take calls (its database is reachable); health reports it. */
  isReady: () => Promise<boolean>;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Defaults: code 100 s, access token 7 days, refresh token 30 days. */
  lifetimes?: TokenLifetimes;
}

const DEFAULT_LIFETIMES: TokenLifetimes = {
  authorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
  accessToken: ACCESS_TOKEN_TTL_SECONDS,
  refreshToken: REFRESH_TOKEN_TTL_SECONDS,
};

/** oauth's gRPC server (`acs.oauth.v1.OAuthService`) over stores built on `prisma`, not yet listening. */
export function createServer(deps: ServerDeps): GrpcServer {
  const { prisma } = deps;
  const handlers = {
    ...createDispatcherHandlers(new EventWebhookSettingsStore(prisma)),
    ...createGuildInstallationHandlers(prisma),
    ...createInvocationHandlers(new InvocationStore(deps.pool)),
    ...createMonetizationHandlers({
      monetization: new MonetizationStore(deps.pool, () => deps.snowflakes.next()),
      snowflakes: deps.snowflakes,
      now: deps.now,
    }),
    ...createHandlers({
      applications: new ApplicationStore(prisma),
      users: new UserStore(prisma),
      tokens: new TokenStore(prisma, deps.pool),
      installations: new InstallationStore(prisma),
      grants: new GrantStore(prisma),
      connections: new ConnectionStore(prisma),
      lifetimes: deps.lifetimes ?? DEFAULT_LIFETIMES,
      permissions: deps.permissions,
      snowflakes: deps.snowflakes,
      now: deps.now,
    }),
  };
  return createGrpcServer({
    logger: deps.logger,
    services: [
      {
        name: 'acs.oauth.v1.OAuthService',
        definition: loadOAuthProto().acs.oauth.v1.OAuthService.service,
        handlers,
      },
    ],
    isReady: deps.isReady,
  });
}

/**
 * The handlers of the RPCs that work with `HandlerDeps`: every RPC but the dispatcher's
 * settings, the command picker's index, the interactions service's `DescribeInvocation` and
 * monetization, which `createServer` adds. Tests drive them directly.
 */
export function createHandlers(deps: HandlerDeps) {
  return {
    ...createTokenHandlers(deps),
    ...createApplicationHandlers(deps),
    ...createUserHandlers(deps),
    ...createAuthorizeHandlers(deps),
    ...createTokenEndpointHandlers(deps),
    ...createCurrentUserHandlers(deps),
    ...createInstallationHandlers(deps),
  };
}

/** The object `createHandlers` returns: one async function per RPC. */
export type OAuthHandlers = ReturnType<typeof createHandlers>;
