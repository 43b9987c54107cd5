import { MalformedJsonError } from '@acs/discord-errors';

/** A surrogate without its pair. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * 400 / 50109 when a string or key of a parsed body holds a lone surrogate: valid JSON
 * (`"\ud800"`) but no text, which PostgreSQL's jsonb refuses to store. api-gateway refuses
 * such bodies at the edge; an endpoint's inline answer reaches this service without it,
 * so the rule holds here for every caller. The walk keeps its own stack: an app's answer
 * may nest deeper than the call stack.
 */
export function checkWellFormedText(value: unknown): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (LONE_SURROGATE.test(item)) throw new MalformedJsonError();
    } else if (Array.isArray(item)) {
      for (const child of item) pending.push(child);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        if (LONE_SURROGATE.test(key)) throw new MalformedJsonError();
        pending.push(child);
      }
    }
  }
}
