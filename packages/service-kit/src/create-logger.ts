import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** Fields that may hold a credential: pino replaces their values before they are written. */
const REDACTED_PATHS = [
  'authorization',
  'token',
  'bot_token',
  'client_secret',
  'access_token',
  'refresh_token',
  'code',
  'code_verifier',
  'password',
  '*.authorization',
  '*.token',
  '*.bot_token',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
  'req.headers.authorization',
];

/** A JSON logger named after the service, with credentials redacted. */
export function createLogger(service: string, level: string): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
