import type { Request } from 'express';
import { fieldError, readPathSnowflake } from '@acs/discord-errors';

/**
 * A path parameter that must be a snowflake: 50035 at its name otherwise, NUMBER_TYPE_COERCE
 * or, above 2^63 − 1, NUMBER_TYPE_MAX (the one id rule of `readPathSnowflake`).
 */
export function snowflakeParam(req: Request, name: string): string {
  return readPathSnowflake(name, String(req.params[name] ?? ''));
}

/** An optional snowflake query parameter ('' when absent), under the same rule as path ids. */
export function snowflakeQuery(req: Request, name: string): string {
  const value = req.query[name];
  return value === undefined ? '' : readPathSnowflake(name, String(value));
}

/** Discord's boolean query strings: True/true/1 and False/false/0. */
export function booleanQuery(req: Request, name: string): boolean {
  const value = req.query[name];
  if (value === undefined) return false;
  const text = String(value);
  if (/^(true|1)$/i.test(text)) return true;
  if (/^(false|0)$/i.test(text)) return false;
  throw fieldError(name, 'BASE_TYPE_BOOLEAN', 'Must be either true or false.');
}

/** The message id of an interaction webhook route: `@original` (the initial response) or a snowflake. */
export function webhookMessageParam(req: Request, name: string): string {
  const value = String(req.params[name] ?? '');
  return value === '@original' ? value : readPathSnowflake(name, value);
}
