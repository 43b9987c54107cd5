import { MalformedJsonError } from '@acs/service-kit';

/**
 * Parses a request body: invalid JSON is 50109 (facts §3.2). An empty body counts as `{}`,
 * so that routes whose fields are all optional (PUT member) may be called without one.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new MalformedJsonError();
  }
}
