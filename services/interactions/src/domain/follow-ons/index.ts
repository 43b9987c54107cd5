export * from './follow-on-errors';
export * from './follow-on-sources';
export * from './judge-component-use';
export * from './judge-modal-submit';
export * from './read-select-values';
