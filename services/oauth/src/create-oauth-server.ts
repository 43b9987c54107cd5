import type { Pool } from 'pg';
import { loadOAuthProto } from '@acs/protos';
import { createGrpcServer, type GrpcServer, type Logger } from '@acs/service-kit';
import type { SnowflakeGenerator } from '@acs/snowflake';
import type { PermissionsClient } from './clients/require-manage-guild';
import type { PrismaClient } from './generated/prisma/client';
import { createDispatcherHandlers } from './handlers/dispatcher-handlers';
import { createGuildInstallationHandlers } from './handlers/guild-installation-handlers';
import { createHandlers } from './server';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
} from './domain/limits';
import type { TokenLifetimes } from './domain/token-lifetimes';
import { ApplicationStore } from './store/application-store';
import { ConnectionStore } from './store/connection-store';
import { GrantStore } from './store/grant-store';
import { EventWebhookSettingsStore } from './store/event-webhook-settings-store';
import { InstallationStore } from './store/installation-store';
import { TokenStore } from './store/token-store';
import { UserStore } from './store/user-store';

const DEFAULT_LIFETIMES: TokenLifetimes = {
  authorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
  accessToken: ACCESS_TOKEN_TTL_SECONDS,
  refreshToken: REFRESH_TOKEN_TTL_SECONDS,
};

/** Builds the stores and the gRPC server of `acs.oauth.v1.OAuthService` (not yet listening). */
export function createOAuthServer(options: {
  logger: Logger;
  prisma: PrismaClient;
  /** The pool under `prisma`; token lookups use it directly. */
  pool: Pool;
  permissions: PermissionsClient;
  snowflakes: SnowflakeGenerator;
  isReady: () => Promise<boolean>;
  now?: () => Date;
  /** Defaults: code 100 s, access token 7 days, refresh token 30 days. */
  lifetimes?: TokenLifetimes;
}): GrpcServer {
  const { prisma } = options;
  const handlers = {
    ...createDispatcherHandlers(new EventWebhookSettingsStore(prisma)),
    ...createGuildInstallationHandlers(prisma),
    ...createHandlers({
      applications: new ApplicationStore(prisma),
      users: new UserStore(prisma),
      tokens: new TokenStore(prisma, options.pool),
      installations: new InstallationStore(prisma),
      grants: new GrantStore(prisma),
      connections: new ConnectionStore(prisma),
      lifetimes: options.lifetimes ?? DEFAULT_LIFETIMES,
      permissions: options.permissions,
      snowflakes: options.snowflakes,
      now: options.now,
    }),
  };
  return createGrpcServer({
    logger: options.logger,
    services: [
      {
        name: 'acs.oauth.v1.OAuthService',
        definition: loadOAuthProto().acs.oauth.v1.OAuthService.service,
        handlers,
      },
    ],
    isReady: options.isReady,
  });
}
