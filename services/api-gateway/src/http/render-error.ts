import type { NextFunction, Request, Response } from 'express';
import {
  fromGrpcError,
  fromTransportFailure,
  isServiceError,
  RepeatedErrorLog,
  type Logger,
} from '@acs/service-kit';
import { DiscordError, OAuth2Error } from '@acs/discord-errors';
import { sendJson } from './send-json';

/**
 * Turns anything thrown into the error a client sees: a DiscordError as is, a service's
 * error from its gRPC detail, a call that failed in transport as 503 (504 for a deadline).
 */
export function toDiscordError(error: unknown): DiscordError | undefined {
  if (error instanceof DiscordError) return error;
  const detailed = fromGrpcError(error);
  if (detailed) return detailed;
  if (isServiceError(error)) return fromTransportFailure(error);
  return undefined;
}

/** The request as a log line names it; the path cut short, since a client chooses it. */
function describeRequest(req: Request): Record<string, unknown> {
  return { method: req.method, path: req.path.slice(0, 200) };
}

/**
 * The one error renderer of the public and admin APIs (Express error middleware):
 * a DiscordError, or a service's error carried over gRPC, is written verbatim; an
 * OAuth2Error (token and revocation endpoints) as its RFC 6749 body with its headers
 * (e.g. `WWW-Authenticate`); anything else is answered 500 without its details. 5xx
 * answers are logged through a RepeatedErrorLog, whose volume no request rate can grow:
 * the first error of a kind whole, repeats as one counted line per interval.
 */
export function createErrorRenderer(logger: Logger) {
  const errorLog = new RepeatedErrorLog(logger);
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const known = toDiscordError(error);
    if (known) {
      if (known.httpStatus >= 500)
        errorLog.report('warn', error, describeRequest(req), 'backend unavailable');
      if (known instanceof OAuth2Error) {
        for (const [name, value] of Object.entries(known.headers)) res.setHeader(name, value);
        sendJson(res, known.httpStatus, known.toOAuth2Body());
        return;
      }
      sendJson(res, known.httpStatus, known.toBody());
      return;
    }
    errorLog.report('error', error, describeRequest(req), 'unhandled error');
    sendJson(res, 500, { code: 0, message: '500: Internal Server Error' });
  };
}
