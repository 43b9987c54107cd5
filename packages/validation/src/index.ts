export { BaseErrorCode } from './base-error-codes';
export { FormErrors, type ErrorPath } from './form-errors';
export * from './read-value';
export * from './locales';
export { parseJsonBody } from './parse-json-body';
