import { BaseErrorCode } from './base-error-codes';
import { InvalidFormBodyError, MalformedJsonError } from './discord-error';

/** A JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

/** Whether a JSON value is an object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A request body as a service receives it (the client's JSON text, forwarded by
 * api-gateway): the parsed value, or 400 / 50109 for text that is not JSON. An empty body
 * reads as `{}`, as Discord (and any HTTP JSON parser) treats it: a route whose fields are
 * all optional may be called without one, and one with required fields reports them.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new MalformedJsonError();
  }
}

/**
 * parseJsonBody for routes whose body must be an object: JSON that is not one is 400 /
 * 50035 with a request-level MODEL_TYPE_CONVERT, as the real API answers.
 */
export function parseJsonObject(text: string): JsonObject {
  const value = parseJsonBody(text);
  if (isJsonObject(value)) return value;
  throw new InvalidFormBodyError({
    _errors: [
      { code: BaseErrorCode.MODEL_TYPE_CONVERT, message: 'Only dictionaries may be used in a ModelType' },
    ],
  });
}
