export * from './read-search-query';
export * from './search-document';
export * from './search-access';
