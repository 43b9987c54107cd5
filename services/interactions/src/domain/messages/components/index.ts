export * from './component-error-codes';
export * from './component-limits';
export * from './component-types';
export * from './check-attachment-urls';
export * from './find-component';
export * from './read-component-url';
export * from './read-message-components';
export * from './read-modal';
