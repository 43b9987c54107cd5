import * as path from 'node:path';
import * as protobuf from 'protobufjs';

/** acs.common.v1.ErrorDetail as protobufjs sees it. */
export interface ErrorDetailMessage {
  httpStatus: number;
  bodyJson: string;
  /** '' for a Discord error body, 'oauth2' for an RFC 6749 one. */
  kind?: string;
  headers?: Record<string, string>;
}

/** google.rpc.Status with google.protobuf.Any details. */
export interface StatusMessage {
  code: number;
  message: string;
  details: Array<{ type_url: string; value: Uint8Array }>;
}

interface Codec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(bytes: Uint8Array): T;
}

function codec<T>(type: protobuf.Type): Codec<T> {
  return {
    encode: (message) => type.encode(type.fromObject(message as Record<string, unknown>)),
    decode: (bytes) => type.toObject(type.decode(bytes), { defaults: true }) as T,
  };
}

const root = new protobuf.Root();
root.resolvePath = (_origin, target) =>
  target.startsWith('google/protobuf/') ? target : path.join(__dirname, '..', target);
// keepCase so that Any's field is `type_url`, as in the wire format.
root.loadSync(['acs/common/v1/error.proto', 'google/rpc/status.proto'], { keepCase: false });

/** Codecs for the error detail carried in `grpc-status-details-bin`. */
export const commonTypes = {
  ErrorDetail: codec<ErrorDetailMessage>(root.lookupType('acs.common.v1.ErrorDetail')),
  Status: codec<StatusMessage>(root.lookupType('google.rpc.Status')),
};
