import { loadPermissionsProto } from '@acs/protos';
import { createGrpcServer, type GrpcServer, type Logger } from '@acs/service-kit';
import {
  createCommandPermissionHandlers,
  type CommandPermissionHandlerDeps,
} from './handlers/command-permission-handlers';
import { createChannelHandlers, type ChannelHandlerDeps } from './handlers/channel-handlers';
import { createDmChannelHandlers, type DmChannelHandlerDeps } from './handlers/dm-channel-handlers';
import { createGuildHandlers, type GuildHandlerDeps } from './handlers/guild-handlers';
import { createInvocationHandlers, type InvocationHandlerDeps } from './handlers/invocation-handlers';
import { createMemberHandlers, type MemberHandlerDeps } from './handlers/member-handlers';
import { createPermissionHandlers, type PermissionHandlerDeps } from './handlers/permission-handlers';
import { createVoiceHandlers, type VoiceHandlerDeps } from './handlers/voice-handlers';

/** What the permissions gRPC server is built from. */
export interface ServerDeps
  extends
    GuildHandlerDeps,
    ChannelHandlerDeps,
    MemberHandlerDeps,
    PermissionHandlerDeps,
    CommandPermissionHandlerDeps,
    DmChannelHandlerDeps,
    InvocationHandlerDeps,
    VoiceHandlerDeps {
  logger: Logger;
  /** Whether the service can take calls (its database is reachable); health reports it. */
  isReady: () => Promise<boolean>;
}

/** The permissions gRPC server (`acs.permissions.v1.PermissionsService`), not yet listening. */
export function createServer(deps: ServerDeps): GrpcServer {
  return createGrpcServer({
    logger: deps.logger,
    services: [
      {
        name: 'acs.permissions.v1.PermissionsService',
        definition: loadPermissionsProto().acs.permissions.v1.PermissionsService.service,
        handlers: {
          ...createGuildHandlers(deps),
          ...createChannelHandlers(deps),
          ...createMemberHandlers(deps),
          ...createPermissionHandlers(deps),
          ...createCommandPermissionHandlers(deps),
          ...createDmChannelHandlers(deps),
          ...createInvocationHandlers(deps),
          ...createVoiceHandlers(deps),
        },
      },
    ],
    isReady: deps.isReady,
  });
}
