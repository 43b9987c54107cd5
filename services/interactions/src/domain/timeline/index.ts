export * from './cap-body';
export * from './failure-reason';
export * from './plan-trace';
export * from './read-timeline-input';
export * from './render-timeline';
export * from './trace-limits';
export type { JsonRecord as JsonRecordLike } from '../invocation/invocation-facts';
