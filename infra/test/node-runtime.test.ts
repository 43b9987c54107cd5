import fs from 'node:fs';
import path from 'node:path';
import { SUPPORTED_NODE, unsupportedRuntimeLine } from '../src/runtime';

// One Node.js release for the images and CI (.node-version), inside the supported lines the
// root package.json declares, and `npm start`'s one line for a runtime outside them.

const ROOT = path.join(__dirname, '..', '..');
const pinned = fs.readFileSync(path.join(ROOT, '.node-version'), 'utf8').trim();

describe('the Node.js runtime', () => {
  it('pins an exact release inside the supported lines', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(unsupportedRuntimeLine(`v${pinned}`)).toBeNull();
    expect(SUPPORTED_NODE).toContain(`^${pinned.split('.')[0]}.`);
  });

  it('builds the images on the release CI runs', () => {
    const dockerfile = fs.readFileSync(path.join(ROOT, 'infra', 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain(`ARG NODE_VERSION=${pinned}\n`);
  });

  it('supports the LTS lines and no release past its end of life', () => {
    for (const version of ['v22.22.0', 'v24.0.0', 'v24.21.0', 'v26.12.1']) {
      expect(unsupportedRuntimeLine(version)).toBeNull();
    }
    for (const version of ['v20.19.5', 'v22.12.0', 'v23.11.0', 'v25.2.0']) {
      expect(unsupportedRuntimeLine(version)).toContain(`Node.js ${version} is not supported`);
    }
  });
});
