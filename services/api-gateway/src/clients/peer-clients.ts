import type { BackendClients } from './backend-clients';
import { createCommandRegistryClient, type CommandRegistryClient } from './command-registry-client';
import { createDispatcherClient, type DispatcherClient } from './dispatcher-client';
import { createInteractionsClient, type InteractionsClient } from './interactions-client';
import { createLobbyClient, type LobbyClient } from './lobby-client';
import { createOAuthClient, type OAuthClient } from './oauth-client';
import { createPermissionsClient, type PermissionsClient } from './permissions-client';

/** The services api-gateway calls, each through its typed client (in the order `/readyz` names them). */
export interface PeerClients {
  registry: CommandRegistryClient;
  oauth: OAuthClient;
  permissions: PermissionsClient;
  dispatcher: DispatcherClient;
  interactions: InteractionsClient;
  lobby: LobbyClient;
}

/** The typed clients over the gRPC clients of the peers. */
export function createPeerClients(backends: BackendClients): PeerClients {
  return {
    registry: createCommandRegistryClient(backends.registry),
    oauth: createOAuthClient(backends.oauth),
    permissions: createPermissionsClient(backends.permissions),
    dispatcher: createDispatcherClient(backends.dispatcher),
    interactions: createInteractionsClient(backends.interactions),
    lobby: createLobbyClient(backends.lobby),
  };
}
