import type { AdminRequest } from './admin-client';
import type { DemoWorld } from './demo-world';

/** Starts examples/http-bot and examples/gateway-bot against the demo world (see run-examples.js). */
export function runExamples(options: {
  apiUrl: string;
  admin: AdminRequest;
  seed: DemoWorld;
  dataDir: string;
  say: (line: string) => void;
}): Promise<{ stop: () => Promise<unknown>; lines: string[] }>;
