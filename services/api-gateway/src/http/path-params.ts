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

/**
 * An optional integer query parameter within `min`-`max` (undefined when absent); 50035 at
 * its name otherwise: NUMBER_TYPE_COERCE for what is not an integer (or has more digits
 * than a 64-bit one), NUMBER_TYPE_MIN/MAX beyond the bounds.
 */
export function integerQuery(req: Request, name: string, min: number, max: number): number | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^-?\d{1,20}$/.test(text))
    throw fieldError(name, 'NUMBER_TYPE_COERCE', `Value "${text.slice(0, 100)}" is not int.`);
  const number = BigInt(text);
  if (number < BigInt(min))
    throw fieldError(name, 'NUMBER_TYPE_MIN', `int value should be greater than or equal to ${min}.`);
  if (number > BigInt(max))
    throw fieldError(name, 'NUMBER_TYPE_MAX', `int value should be less than or equal to ${max}.`);
  return Number(number);
}

/** A `limit` query parameter: an integer 1-`max`, `max` when absent; 50035 at `limit` otherwise. */
export function limitQuery(req: Request, max: number): number {
  return integerQuery(req, 'limit', 1, max) ?? max;
}

/** The message id of an interaction webhook route: `@original` (the initial response) or a snowflake. */
export function webhookMessageParam(req: Request, name: string): string {
  const value = String(req.params[name] ?? '');
  return value === '@original' ? value : readPathSnowflake(name, value);
}
