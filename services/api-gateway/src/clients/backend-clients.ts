import {
  loadCommandRegistryProto,
  loadDispatcherProto,
  loadInteractionsProto,
  loadLobbyProto,
  loadOAuthProto,
  loadPermissionsProto,
} from '@acs/protos';
import type { commandRegistry, dispatcher, interactions, lobby, oauth, permissions } from '@acs/protos';
import { createGrpcClient } from '@acs/service-kit';

/** The gRPC clients of the services api-gateway talks to (handlers use them through `PeerClients`). */
export interface BackendClients {
  registry: commandRegistry.CommandRegistryServiceClient;
  oauth: oauth.OAuthServiceClient;
  permissions: permissions.PermissionsServiceClient;
  dispatcher: dispatcher.DispatcherServiceClient;
  interactions: interactions.InteractionsServiceClient;
  lobby: lobby.LobbyServiceClient;
}

/** Opens one channel per backend service. */
export function createBackendClients(urls: {
  registry: string;
  oauth: string;
  permissions: string;
  dispatcher: string;
  interactions: string;
  lobby: string;
}): BackendClients {
  return {
    registry: createGrpcClient(
      loadCommandRegistryProto().acs.command_registry.v1.CommandRegistryService,
      urls.registry,
    ),
    oauth: createGrpcClient(loadOAuthProto().acs.oauth.v1.OAuthService, urls.oauth),
    permissions: createGrpcClient(
      loadPermissionsProto().acs.permissions.v1.PermissionsService,
      urls.permissions,
    ),
    dispatcher: createGrpcClient(loadDispatcherProto().acs.dispatcher.v1.DispatcherService, urls.dispatcher),
    interactions: createGrpcClient(
      loadInteractionsProto().acs.interactions.v1.InteractionsService,
      urls.interactions,
    ),
    lobby: createGrpcClient(loadLobbyProto().acs.lobby.v1.LobbyService, urls.lobby),
  };
}

/** Closes every channel. */
export function closeBackendClients(clients: BackendClients): void {
  clients.registry.close();
  clients.oauth.close();
  clients.permissions.close();
  clients.dispatcher.close();
  clients.interactions.close();
  clients.lobby.close();
}
