import { MalformedJsonError } from '@acs/service-kit';

/**
 * A request body as a service receives it (the client's JSON text, forwarded by
 * api-gateway): the parsed value, undefined for an empty body (validation then reports
 * the missing fields), or 50109 for text that is not JSON.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new MalformedJsonError();
  }
}
