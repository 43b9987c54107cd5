export { findTestServers, type TestServers } from './find-servers';
export { createTestDatabase, type TestDatabase } from './create-test-database';
