// Generates the TypeScript types of every ACS proto (proto-loader-gen-types, with the
// loader options of src/index.ts) and a barrel per package so that callers can write
// `import type { commandRegistry } from '@acs/protos'`.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const out = path.join(root, 'src', 'generated');
const files = [
  'acs/command_registry/v1/command_registry.proto',
  'acs/oauth/v1/oauth.proto',
  'acs/permissions/v1/permissions.proto',
  'acs/dispatcher/v1/dispatcher.proto',
  'acs/interactions/v1/interactions.proto',
  'acs/lobby/v1/lobby.proto',
];
fs.rmSync(out, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [
    require.resolve('@grpc/proto-loader/build/bin/proto-loader-gen-types.js'),
    '--grpcLib=@grpc/grpc-js',
    '--longs=Number',
    '--enums=String',
    '--defaults',
    '--oneofs',
    '--keepCase',
    '-I',
    root,
    '-O',
    out,
    ...files,
  ],
  { stdio: 'inherit' },
);
for (const file of files) {
  const dir = path.join(out, path.dirname(file));
  const modules = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
  const lines = modules.map((f) => `export * from './${f.slice(0, -3)}';`);
  fs.writeFileSync(path.join(dir, 'index.ts'), `${lines.join('\n')}\n`);
}
