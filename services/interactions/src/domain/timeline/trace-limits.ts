/** How many interactions the timeline keeps per application (older ones are pruned when one is recorded). */
export const TRACES_KEPT_PER_APPLICATION = 1000;
/** A body (payload, answer, refusal, follow-up) larger than this, as JSON, is kept as a preview. */
export const TRACE_BODY_MAX_BYTES = 16 * 1024;
/** How much of a body over the cap its preview keeps (characters of its JSON). */
export const TRACE_PREVIEW_CHARS = 2048;
/** How many refused callbacks an interaction's timeline keeps (the latest). */
export const TRACE_REFUSALS_KEPT = 5;
/** How many follow-ups, edits and deletions an interaction's timeline keeps (the first). */
export const TRACE_STEPS_KEPT = 50;
/** The timeline's page size: default and bounds of `limit`. */
export const TIMELINE_PAGE = { default: 25, min: 1, max: 100 } as const;
