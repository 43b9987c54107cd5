import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { commonTypes } from '@acs/protos';
import {
  DiscordError,
  OAuth2Error,
  type DiscordErrorBody,
  type ErrorBodyFields,
  type ErrorLeaf,
  type ErrorTree,
  type OAuth2ErrorBody,
} from '@acs/discord-errors';

const DETAILS_KEY = 'grpc-status-details-bin';
const DETAIL_TYPE_URL = 'type.googleapis.com/acs.common.v1.ErrorDetail';

/** The gRPC status that best matches an HTTP status, for callers that look only at gRPC. */
function grpcCodeFor(httpStatus: number): status {
  switch (httpStatus) {
    case 400:
      return status.INVALID_ARGUMENT;
    case 401:
      return status.UNAUTHENTICATED;
    case 403:
      return status.PERMISSION_DENIED;
    case 404:
      return status.NOT_FOUND;
    case 409:
      return status.ALREADY_EXISTS;
    case 429:
      return status.RESOURCE_EXHAUSTED;
    case 503:
      return status.UNAVAILABLE;
    case 504:
      return status.DEADLINE_EXCEEDED;
    default:
      return httpStatus >= 500 ? status.INTERNAL : status.FAILED_PRECONDITION;
  }
}

/**
 * The most bytes an error body may take. The body travels in the call's trailers, which
 * are HTTP/2 headers, base64-encoded (4/3 of its size) next to the status and message;
 * a Node caller (grpc-js keeps http2's 64 KiB header list limit) refuses a larger block,
 * and the call, with the calls sharing its connection, then hangs until its deadline.
 */
export const MAX_ERROR_BODY_BYTES = 32 * 1024;

/** The longest error message kept when a body is over MAX_ERROR_BODY_BYTES. */
const SHORT_MESSAGE_LENGTH = 200;

const byteLength = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

function shorten(message: string): string {
  return message.length > SHORT_MESSAGE_LENGTH ? `${message.slice(0, SHORT_MESSAGE_LENGTH - 3)}...` : message;
}

/** Every `_errors` list of a tree with its path, in the order the tree holds them. */
function errorLists(tree: ErrorTree, path: string[] = []): Array<[string[], ErrorLeaf[]]> {
  return Object.entries(tree).flatMap(([key, node]): Array<[string[], ErrorLeaf[]]> => {
    if (node === undefined) return [];
    if (key === '_errors') return [[path, node as ErrorLeaf[]]];
    return errorLists(node as ErrorTree, [...path, key]);
  });
}

/** Puts `leaves` at `path`, defining each level as an own key: a field may be named `__proto__`. */
function insert(tree: ErrorTree, path: string[], leaves: ErrorLeaf[]): void {
  let node = tree;
  for (const key of path) {
    if (!Object.hasOwn(node, key)) {
      Object.defineProperty(node, key, { value: {}, enumerable: true, writable: true, configurable: true });
    }
    node = node[key] as ErrorTree;
  }
  node._errors = leaves;
}

/**
 * A body that fits in the trailers: itself when it does; else with every message cut to
 * SHORT_MESSAGE_LENGTH characters (one may quote a huge input); else with the first
 * errors of its tree, in order, as many as fit. The status and code are kept, so the
 * caller still answers what the service decided, with the errors it can carry.
 */
export function boundedErrorBody(body: DiscordErrorBody): DiscordErrorBody {
  if (byteLength(body) <= MAX_ERROR_BODY_BYTES) return body;
  const lists = errorLists(body.errors ?? {}).map(([path, leaves]): [string[], ErrorLeaf[]] => [
    path,
    leaves.map((leaf) => ({ code: leaf.code, message: shorten(leaf.message) })),
  ]);
  const errors: ErrorTree = {};
  const head = { code: body.code, message: shorten(body.message) };
  let left = MAX_ERROR_BODY_BYTES - byteLength({ ...head, errors: {} });
  for (const [path, leaves] of lists) {
    // Each list is counted with its whole path (`"key":{…},` per level, then `"_errors":[…],`):
    // at least what it adds to the tree, whose lists share the path's first levels.
    let cost = path.reduce((bytes, key) => bytes + byteLength(key) + 4, 0) + 12;
    const kept: ErrorLeaf[] = [];
    for (const leaf of leaves) {
      const more = byteLength(leaf) + 1;
      if (cost + more > left) break;
      kept.push(leaf);
      cost += more;
    }
    if (kept.length > 0) insert(errors, path, kept);
    if (kept.length < leaves.length) break;
    left -= cost;
  }
  return body.errors === undefined ? head : { ...head, errors };
}

/** The detail kind of an OAuth2Error (RFC 6749 body and headers). */
const OAUTH2_KIND = 'oauth2';

/**
 * Turns a DiscordError (or an OAuth2Error, with its headers) into a gRPC error whose
 * google.rpc.Status detail carries the body.
 */
export function toGrpcError(error: DiscordError): Partial<ServiceError> {
  const code = grpcCodeFor(error.httpStatus);
  const detail = commonTypes.ErrorDetail.encode(
    error instanceof OAuth2Error
      ? {
          httpStatus: error.httpStatus,
          bodyJson: JSON.stringify(error.toOAuth2Body()),
          kind: OAUTH2_KIND,
          headers: { ...error.headers },
        }
      : { httpStatus: error.httpStatus, bodyJson: JSON.stringify(boundedErrorBody(error.toBody())) },
  ).finish();
  const statusBytes = commonTypes.Status.encode({
    code,
    message: shorten(error.message),
    details: [{ type_url: DETAIL_TYPE_URL, value: detail }],
  }).finish();
  const metadata = new Metadata();
  metadata.set(DETAILS_KEY, Buffer.from(statusBytes));
  return { code, details: shorten(error.message), metadata };
}

/**
 * Reads the DiscordError (an OAuth2Error for kind "oauth2") a service attached to a
 * failed call; undefined when there is none.
 */
export function fromGrpcError(error: unknown): DiscordError | undefined {
  if (!isServiceError(error)) return undefined;
  const raw = error.metadata?.get(DETAILS_KEY)[0];
  if (!Buffer.isBuffer(raw)) return undefined;
  const decoded = commonTypes.Status.decode(raw);
  const any = decoded.details.find((d) => d.type_url === DETAIL_TYPE_URL);
  if (!any) return undefined;
  const detail = commonTypes.ErrorDetail.decode(any.value);
  if (detail.kind === OAUTH2_KIND) {
    const oauth2 = JSON.parse(detail.bodyJson) as OAuth2ErrorBody;
    return new OAuth2Error(detail.httpStatus, oauth2.error, oauth2.error_description, detail.headers ?? {});
  }
  const { code, message, errors, ...fields } = JSON.parse(detail.bodyJson) as DiscordErrorBody;
  return new DiscordError(
    detail.httpStatus,
    code,
    message,
    errors,
    Object.keys(fields).length > 0 ? (fields as ErrorBodyFields) : undefined,
  );
}

/** Whether a failed call carries a service's error detail (else it failed in transport). */
export function carriesErrorDetail(error: ServiceError): boolean {
  return Buffer.isBuffer(error.metadata?.get(DETAILS_KEY)[0]);
}

/** Whether a value is a gRPC ServiceError. */
export function isServiceError(error: unknown): error is ServiceError {
  return (
    error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number' && 'metadata' in error
  );
}
