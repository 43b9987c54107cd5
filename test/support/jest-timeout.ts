// End-to-end tests start a whole stack per file; the root run's 30 s default is too short.
// Generous, for a machine busy with other work: the stack's own start timeout (the
// launcher's default, 4 minutes) fires first, naming the service that is late.
// (testTimeout cannot be set per project in Jest 29.)
jest.setTimeout(300_000);
