export { startTestStack, type TestStack } from './start-test-stack';
export { spawnGateway, type GatewayReplica } from './spawn-gateway';
export {
  createDemoWorld,
  createUser,
  createGuild,
  createApplication,
  installApplication,
  type AdminTarget,
  type DemoWorld,
} from './demo-world';
export { scrapeMetrics, metricSample } from './scrape-metrics';
