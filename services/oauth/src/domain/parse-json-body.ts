import { MalformedJsonError } from '@acs/service-kit';
import { ErrorCode } from './error-codes';
import { FormErrors } from '@acs/validation';
import { isJsonObject, type JsonObject } from './read-value';

/**
 * Parses an admin request body: not JSON → 400 / 50109; JSON that is not an object →
 * 400 / 50035 with a request-level MODEL_TYPE_CONVERT. An empty body reads as `{}`, as
 * an HTTP JSON parser hands it over.
 */
export function parseJsonBody(text: string): JsonObject {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedJsonError();
  }
  if (isJsonObject(value)) return value;
  const errors = new FormErrors();
  errors.add([], ErrorCode.MODEL_TYPE_CONVERT, 'Only dictionaries may be used in a ModelType');
  errors.throwIfAny();
  return {};
}
