import type { Request } from 'express';
import { fieldError, readPathSnowflake } from '@acs/discord-errors';

/** A path parameter that must be a snowflake; the real API answers 50035 NUMBER_TYPE_COERCE otherwise. */
export function snowflakeParam(req: Request, name: string): string {
  return readPathSnowflake(name, String(req.params[name] ?? ''));
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
