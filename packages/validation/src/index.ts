export { FormErrors, MAX_REPORTED_ERRORS, type ErrorPath } from './form-errors';
export * from './read-value';
export * from './read-bit-set';
export * from './snowflake-field';
export * from './nul-character';
export * from './locales';
export * from './permission-flags';
