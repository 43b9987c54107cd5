import { status as grpcStatus } from '@grpc/grpc-js';
import type { NextFunction, Request, Response } from 'express';
import { fromGrpcError, isServiceError, type Logger } from '@acs/service-kit';
import { DiscordError, OAuth2Error } from '@acs/discord-errors';
import { sendJson } from './send-json';

/** Turns anything thrown into the error a client sees. */
export function toDiscordError(error: unknown): DiscordError | undefined {
  if (error instanceof DiscordError) return error;
  const detailed = fromGrpcError(error);
  if (detailed) return detailed;
  if (isServiceError(error)) {
    if (error.code === grpcStatus.UNAVAILABLE) return new DiscordError(503, 0, '503: Service Unavailable');
    if (error.code === grpcStatus.DEADLINE_EXCEEDED) return new DiscordError(504, 0, '504: Gateway Timeout');
  }
  return undefined;
}

/**
 * The one error renderer of the public and admin APIs (Express error middleware):
 * a DiscordError, or a service's error carried over gRPC, is written verbatim; an
 * OAuth2Error (token and revocation endpoints) as its RFC 6749 body with its headers
 * (e.g. `WWW-Authenticate`); anything else is logged and answered 500 without its details.
 */
export function createErrorRenderer(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const known = toDiscordError(error);
    if (known) {
      if (known.httpStatus >= 500) logger.warn({ err: error, path: req.path }, 'backend unavailable');
      if (known instanceof OAuth2Error) {
        for (const [name, value] of Object.entries(known.headers)) res.setHeader(name, value);
        sendJson(res, known.httpStatus, known.toOAuth2Body());
        return;
      }
      sendJson(res, known.httpStatus, known.toBody());
      return;
    }
    logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    sendJson(res, 500, { code: 0, message: '500: Internal Server Error' });
  };
}
