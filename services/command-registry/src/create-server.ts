import { loadCommandRegistryProto } from '@acs/protos';
import { createGrpcServer, type GrpcServer, type Logger } from '@acs/service-kit';
import { createCommandHandlers, type CommandHandlerDeps } from './handlers/command-handlers';
import { createCommandIndexHandlers, type CommandIndexHandlerDeps } from './handlers/command-index-handlers';
import { createInvocationHandlers, type InvocationHandlerDeps } from './handlers/invocation-handlers';
import { createResolveHandlers, type ResolveHandlerDeps } from './handlers/resolve-handlers';

/** What command-registry's gRPC server is built from. */
export interface ServerDeps
  extends CommandHandlerDeps, CommandIndexHandlerDeps, ResolveHandlerDeps, InvocationHandlerDeps {
  logger: Logger;
  /** Whether the service can take calls (its database is reachable); health reports it. */
  isReady: () => Promise<boolean>;
}

/** command-registry's gRPC server (`acs.command_registry.v1.CommandRegistryService`), not yet listening. */
export function createServer(deps: ServerDeps): GrpcServer {
  return createGrpcServer({
    logger: deps.logger,
    services: [
      {
        name: 'acs.command_registry.v1.CommandRegistryService',
        definition: loadCommandRegistryProto().acs.command_registry.v1.CommandRegistryService.service,
        handlers: {
          ...createCommandHandlers(deps),
          ...createResolveHandlers(deps),
          ...createCommandIndexHandlers(deps),
          ...createInvocationHandlers(deps),
        },
      },
    ],
    isReady: deps.isReady,
  });
}
