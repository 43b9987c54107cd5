import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProtoGrpcType as CommandRegistryProto } from './generated/command_registry';
import type { ProtoGrpcType as DispatcherProto } from './generated/dispatcher';
import type { ProtoGrpcType as InteractionsProto } from './generated/interactions';
import type { ProtoGrpcType as LobbyProto } from './generated/lobby';
import type { ProtoGrpcType as OAuthProto } from './generated/oauth';
import type { ProtoGrpcType as PermissionsProto } from './generated/permissions';

export { commonTypes } from './common-types';
export type * as commandRegistry from './generated/acs/command_registry/v1';
export type * as oauth from './generated/acs/oauth/v1';
export type * as permissions from './generated/acs/permissions/v1';
export type * as dispatcher from './generated/acs/dispatcher/v1';
export type * as interactions from './generated/acs/interactions/v1';
export type * as lobby from './generated/acs/lobby/v1';

/** Folder holding the .proto files (acs/<service>/v1/*.proto). */
export const PROTO_DIR = path.join(__dirname, '..');

/**
 * The loader options every ACS service uses; the generated types (npm run generate)
 * are produced with the same ones, so they describe exactly what is loaded.
 */
const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

function load<T>(file: string): T {
  const definition = protoLoader.loadSync(file, LOADER_OPTIONS);
  return grpc.loadPackageDefinition(definition) as unknown as T;
}

/** acs.command_registry.v1 */
export function loadCommandRegistryProto(): CommandRegistryProto {
  return load<CommandRegistryProto>('acs/command_registry/v1/command_registry.proto');
}

/** acs.oauth.v1 */
export function loadOAuthProto(): OAuthProto {
  return load<OAuthProto>('acs/oauth/v1/oauth.proto');
}

/** acs.permissions.v1 */
export function loadPermissionsProto(): PermissionsProto {
  return load<PermissionsProto>('acs/permissions/v1/permissions.proto');
}

/** acs.dispatcher.v1 */
export function loadDispatcherProto(): DispatcherProto {
  return load<DispatcherProto>('acs/dispatcher/v1/dispatcher.proto');
}

/** acs.interactions.v1 */
export function loadInteractionsProto(): InteractionsProto {
  return load<InteractionsProto>('acs/interactions/v1/interactions.proto');
}

/** acs.lobby.v1 */
export function loadLobbyProto(): LobbyProto {
  return load<LobbyProto>('acs/lobby/v1/lobby.proto');
}
