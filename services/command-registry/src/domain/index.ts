// The pure rules of application commands: validation, normalization, localization, errors.
export * from './command-enums';
export * from './command-errors';
export * from './commands-equal';
export * from './compute-command-size';
export * from './error-codes';
export * from './fill-localizations';
export * from './limits';
export * from './localize-command';
export * from './merge-command-patch';
export * from './normalized-command';
export * from './validate-bulk';
export * from './validate-command';
export * from './plan-overwrite';
export * from './create-quota';
