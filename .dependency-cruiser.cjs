/**
 * The layer rules of services/README.md, checked by `npm run lint` (dependency-cruiser).
 * Within a service: main → start-service → create-server → handlers → {domain, store,
 * clients, events}; store, clients and events → domain; domain → only domain and the
 * pure packages (@acs/discord-errors, @acs/validation, @acs/snowflake). The capture group
 * keeps each rule within one service.
 */
const SERVICE = '^services/([^/]+)/src/';
const WIRING = '(main|start-service|create-server)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'domain/ holds rules: it imports only domain/ of its own service and the pure packages.',
      severity: 'error',
      from: { path: `${SERVICE}domain/` },
      to: { path: `${SERVICE}(?!domain/)`, pathNot: '\\.d\\.ts$' },
    },
    {
      name: 'domain-imports-only-pure-packages',
      comment:
        'domain/ may use @acs/discord-errors, @acs/validation and @acs/snowflake, and the types of the event catalog (the events a planner reads), no other package of ours.',
      severity: 'error',
      from: { path: `${SERVICE}domain/` },
      // A package resolves to its build (packages/x/dist) once built, else stays its name.
      to: {
        path: '^(packages/|@acs/)',
        pathNot: '^(packages/|@acs/)(discord-errors|validation|snowflake)(/|$)',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'no-upward-imports-from-store-clients-events',
      comment: 'store/, clients/ and events/ build on domain/, never on handlers or the wiring.',
      severity: 'error',
      from: { path: `${SERVICE}(store|clients|events)/` },
      to: { path: [`${SERVICE}handlers/`, `${SERVICE}${WIRING}`] },
    },
    {
      name: 'handlers-do-not-import-wiring',
      comment: 'handlers/ are built by create-server: they never import it, start-service or main.',
      severity: 'error',
      from: { path: `${SERVICE}handlers/` },
      to: { path: `${SERVICE}${WIRING}` },
    },
    {
      name: 'no-service-imports-another',
      comment: 'services meet only through gRPC and events: no file of one imports a file of another.',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'packages-do-not-import-services',
      comment: 'libraries never depend on a deployable.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^services/' },
    },
  ],
  options: {
    // Packages resolve to their build (dist/): kept as dependencies, not cruised into.
    doNotFollow: { path: '(^|/)(node_modules|dist|generated)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: true,
  },
};
