export { findTestServers, type TestServers } from './find-servers';
export { createTestDatabase, type TestDatabase } from './create-test-database';
export { GatewayTestClient, type Received } from './gateway-test-client';
export { TcpProxy } from './tcp-proxy';
export { longestBigIntText } from './big-int-inputs';
