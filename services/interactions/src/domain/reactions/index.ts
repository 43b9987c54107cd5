export * from './reaction-errors';
export * from './reaction-rules';
export * from './reaction-summary';
export * from './read-reaction-emoji';
export * from './read-reactions-query';
