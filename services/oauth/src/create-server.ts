import { loadOAuthProto } from '@acs/protos';
import { createGrpcServer, type GrpcServer, type Logger } from '@acs/service-kit';
import { createHandlers } from './handlers/create-handlers';
import type { HandlerDeps } from './handlers/handler-deps';

/** What oauth's gRPC server is built from: the handlers' dependencies (stores built by start-service). */
export interface ServerDeps extends HandlerDeps {
  logger: Logger;
  /** Whether the service can take calls (its database is reachable); health reports it. */
  isReady: () => Promise<boolean>;
}

/** oauth's gRPC server (`acs.oauth.v1.OAuthService`), not yet listening. */
export function createServer(deps: ServerDeps): GrpcServer {
  return createGrpcServer({
    logger: deps.logger,
    services: [
      {
        name: 'acs.oauth.v1.OAuthService',
        definition: loadOAuthProto().acs.oauth.v1.OAuthService.service,
        handlers: createHandlers(deps),
      },
    ],
    isReady: deps.isReady,
  });
}
