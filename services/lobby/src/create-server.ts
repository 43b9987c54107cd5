import { loadLobbyProto } from '@acs/protos';
import { createGrpcServer, type GrpcServer, type Logger } from '@acs/service-kit';
import { createLobbyHandlers, type LobbyHandlerDeps } from './handlers/lobby-handlers';

/** What lobby's gRPC server is built from. */
export interface ServerDeps extends LobbyHandlerDeps {
  logger: Logger;
  /** Whether the service can take calls (its database is reachable); health reports it. */
  isReady: () => Promise<boolean>;
}

/** lobby's gRPC server (`acs.lobby.v1.LobbyService`), not yet listening. */
export function createServer(deps: ServerDeps): GrpcServer {
  return createGrpcServer({
    logger: deps.logger,
    services: [
      {
        name: 'acs.lobby.v1.LobbyService',
        definition: loadLobbyProto().acs.lobby.v1.LobbyService.service,
        handlers: createLobbyHandlers(deps),
      },
    ],
    isReady: deps.isReady,
  });
}
