import { loadInteractionsProto } from '@acs/protos';
import { createGrpcServer, type GrpcServer, type Logger } from '@acs/service-kit';

/** What interactions' gRPC server is built from. */
export interface ServerDeps {
  logger: Logger;
  /** Whether the service can take calls (its database is reachable); health reports it. */
  isReady: () => Promise<boolean>;
}

/** interactions' gRPC server (`acs.interactions.v1.InteractionsService`), not yet listening. */
export function createServer(deps: ServerDeps): GrpcServer {
  return createGrpcServer({
    logger: deps.logger,
    services: [
      {
        name: 'acs.interactions.v1.InteractionsService',
        definition: loadInteractionsProto().acs.interactions.v1.InteractionsService.service,
        // The RPCs arrive with the invocation path (CreateInteraction) and the responses
        // (callbacks, follow-ups, messages); until then grpc answers UNIMPLEMENTED.
        handlers: {},
      },
    ],
    isReady: deps.isReady,
  });
}
