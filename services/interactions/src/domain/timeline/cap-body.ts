import { TRACE_BODY_MAX_BYTES, TRACE_PREVIEW_CHARS } from './trace-limits';

/** A body too large for the timeline: how large it was, and its beginning. */
export interface CappedBody {
  truncated: true;
  bytes: number;
  preview: string;
}

/**
 * A body as the timeline keeps it: itself when its JSON fits `maxBytes`, else a preview
 * that says how large it was (the timeline is bounded per application, not per body).
 */
export function capBody(value: unknown, maxBytes = TRACE_BODY_MAX_BYTES): unknown {
  const json = JSON.stringify(value ?? null);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes <= maxBytes) return value ?? null;
  const capped: CappedBody = { truncated: true, bytes, preview: json.slice(0, TRACE_PREVIEW_CHARS) };
  return capped;
}
