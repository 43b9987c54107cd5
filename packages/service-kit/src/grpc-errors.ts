import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { commonTypes } from '@acs/protos';
import { DiscordError, OAuth2Error, type DiscordErrorBody, type OAuth2ErrorBody } from '@acs/discord-errors';

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
      : { httpStatus: error.httpStatus, bodyJson: JSON.stringify(error.toBody()) },
  ).finish();
  const statusBytes = commonTypes.Status.encode({
    code,
    message: error.message,
    details: [{ type_url: DETAIL_TYPE_URL, value: detail }],
  }).finish();
  const metadata = new Metadata();
  metadata.set(DETAILS_KEY, Buffer.from(statusBytes));
  return { code, details: error.message, metadata };
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
  const body = JSON.parse(detail.bodyJson) as DiscordErrorBody;
  return new DiscordError(detail.httpStatus, body.code, body.message, body.errors);
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
