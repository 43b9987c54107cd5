// Types of stack.js for the TypeScript that uses it (test/support, bench).
import type { ChildProcess } from 'node:child_process';

export type PortName = 'http' | 'registry' | 'permissions' | 'oauth' | 'lobby' | 'dispatcher' | 'gateway';

export interface ExitInfo {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** true when it exited because stop() asked it to. */
  expected: boolean;
}

export interface ServiceProcess {
  name: string;
  pid: number | undefined;
  child: ChildProcess;
  exited: Promise<ExitInfo>;
  exitInfo: ExitInfo | undefined;
  /** Its latest raw output lines (stdout and stderr). */
  lastLines(count?: number): string[];
  /** SIGTERM, then SIGKILL after graceMs (default 10 s). */
  stop(graceMs?: number): Promise<ExitInfo>;
}

export interface StackOptions {
  /** Base URL of the one database; each service adds its own search_path. */
  databaseUrl: string;
  natsUrl: string;
  /** ADMIN_TOKEN of api-gateway. */
  adminToken: string;
  /** Defaults from infra/src/service-wiring.js; 'free' picks unused ports. */
  ports?: Partial<Record<PortName, number>> | 'free';
  /** Base environment of every service (default process.env); the wiring overrides it. */
  env?: NodeJS.ProcessEnv;
  /** pretty (default): readable lines; quiet: nothing (last lines kept for errors); inherit: raw JSON lines. */
  logMode?: 'pretty' | 'quiet' | 'inherit';
  /** Also append every service's raw lines to this file. */
  logFile?: string;
  /** Apply each service's migrations first (default true). */
  migrate?: boolean;
  /** Interface api-gateway listens on (default 127.0.0.1). */
  host?: string;
  /** Default 60 000. */
  readyTimeoutMs?: number;
  /** Called when a service dies while the stack runs; lastLines are formatted. */
  onUnexpectedExit?: (exit: ExitInfo, lastLines: string[]) => void;
  /** Repository root (default: this checkout). */
  root?: string;
  /** JetStream stream and subject prefix of every service (default ACS_EVENTS / acs); one per stack sharing a NATS. */
  events?: { stream: string; subjectPrefix: string };
}

export interface Stack {
  /** api-gateway's origin, e.g. http://127.0.0.1:8080: public API under /api/v10, admin API under /admin. */
  apiUrl: string;
  adminToken: string;
  ports: Record<PortName, number>;
  processes: ServiceProcess[];
  /** The last lines of every service, formatted, for failure messages. */
  recentLogs(count?: number): string;
  /** SIGTERM to every service (edge services first), SIGKILL after 10 s. */
  stop(): Promise<void>;
  /** Starts a service again with the same environment (stopping it first if it runs). */
  restart(name: string): Promise<ServiceProcess>;
}

export interface ServiceFolder {
  name: string;
  dir: string;
  main: string;
  isBuilt: boolean;
  hasPrisma: boolean;
}

/** Migrates, starts every service wired together and waits until api-gateway's /readyz is 200. */
export function startStack(options: StackOptions): Promise<Stack>;
/** The service folders under `<root>/services` (those with a package.json). */
export function findServices(root: string): ServiceFolder[];
export const REPO_ROOT: string;
