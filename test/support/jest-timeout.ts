// End-to-end tests start a whole stack per file; the root run's 30 s default is too short.
// (testTimeout cannot be set per project in Jest 29.)
jest.setTimeout(180_000);
