// The shared offline configuration (infra/src/prisma-config.js): WebAssembly engines, the
// pg driver adapter, DATABASE_URL with this service's search_path.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { servicePrismaConfig } = require('../../infra/src/prisma-config');

export default servicePrismaConfig();
