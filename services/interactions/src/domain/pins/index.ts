export * from './channel-access';
export * from './pin-errors';
export * from './read-pins-query';
export * from './render-pins';
