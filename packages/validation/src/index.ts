export { FormErrors, type ErrorPath } from './form-errors';
export * from './read-value';
export * from './locales';
