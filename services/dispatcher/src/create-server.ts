import { loadDispatcherProto } from '@acs/protos';
import { createGrpcServer, type GrpcServer, type Logger } from '@acs/service-kit';
import { createEndpointHandlers, type EndpointHandlerDeps } from './handlers/endpoint-handlers';
import { createGatewayHandlers, type GatewayHandlerDeps } from './handlers/gateway-handlers';

/** What the dispatcher's gRPC server is built from. */
export interface ServerDeps extends GatewayHandlerDeps, EndpointHandlerDeps {
  logger: Logger;
  /** Whether the service can take calls (its database and NATS are reachable); health reports it. */
  isReady: () => Promise<boolean>;
}

/** The dispatcher's gRPC server (`acs.dispatcher.v1.DispatcherService`), not yet listening. */
export function createServer(deps: ServerDeps): GrpcServer {
  return createGrpcServer({
    logger: deps.logger,
    services: [
      {
        name: 'acs.dispatcher.v1.DispatcherService',
        definition: loadDispatcherProto().acs.dispatcher.v1.DispatcherService.service,
        handlers: { ...createGatewayHandlers(deps), ...createEndpointHandlers(deps) },
      },
    ],
    isReady: deps.isReady,
  });
}
