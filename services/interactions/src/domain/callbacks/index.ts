export * from './activity-instance-id';
export * from './callback-error-codes';
export * from './callback-errors';
export * from './callback-types';
export * from './focused-option-type';
export * from './read-autocomplete-choices';
export * from './render-callback-response';
export * from './validate-callback';
