// Types of stack.js for the TypeScript that uses it (test/support, bench).
import type { ChildProcess } from 'node:child_process';

/** The TCP listeners of the edges: api-gateway's HTTP, the dispatcher's WebSocket gateway. */
export type PortName = 'http' | 'gateway';
/** The gRPC servers, which listen on Unix domain sockets. */
export type GrpcName = 'registry' | 'permissions' | 'oauth' | 'lobby' | 'dispatcher' | 'interactions';

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
  /** Settles with the TCP ports it reports once it listens (by listener name), or undefined if it exits first. */
  listening: Promise<Record<string, number> | undefined>;
  /** What it reported, once it has. */
  listeningPorts: Record<string, number> | undefined;
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
  /** TCP ports of the edges: defaults from infra/src/service-wiring.js; 'free' binds port 0 and reads the ports the services report. */
  ports?: Partial<Record<PortName, number>> | 'free';
  /** Base environment of every service (default process.env); the wiring overrides it. */
  env?: NodeJS.ProcessEnv;
  /** pretty (default): readable lines; quiet: nothing (last lines kept for errors); inherit: raw JSON lines. */
  logMode?: 'pretty' | 'quiet' | 'inherit';
  /** Also append every service's raw lines to this file. */
  logFile?: string;
  /** Apply each service's migrations first (default true). */
  migrate?: boolean;
  /** Interface the edges listen on (default 127.0.0.1). */
  host?: string;
  /** How long the services may take from spawn to ready, also for a restart (default 240 000). */
  readyTimeoutMs?: number;
  /** Called when a service dies while the stack runs; lastLines are formatted. */
  onUnexpectedExit?: (exit: ExitInfo, lastLines: string[]) => void;
  /** Repository root (default: this checkout). */
  root?: string;
  /** JetStream stream and subject prefix of every service (default ACS_EVENTS / acs); one per stack sharing a NATS. */
  events?: { stream: string; subjectPrefix: string };
  /**
   * Processes of each service, default 1. Above 1 the edges (api-gateway, dispatcher) listen
   * on ports of their own behind an entry point on the edges' ports (infra/src/entry-point.js),
   * which names the api-gateway replica that answered in `X-ACS-Replica`; each backend's
   * replicas listen on TCP ports of their own on 127.0.0.1, their callers balancing over
   * them (round_robin); REDIS_URL must be set.
   */
  replicas?: number;
}

export interface Stack {
  /** api-gateway's origin, e.g. http://127.0.0.1:8080: public API under /api/v10, admin API under /admin (a restart may change it). */
  readonly apiUrl: string;
  adminToken: string;
  /** The TCP ports the edges are bound to, as they reported them (updated by restart). */
  ports: Record<PortName, number>;
  /**
   * The gRPC target of each service: `unix:<the stack's directory>/<service>.sock`; with
   * replicas, a backend's lists every replica, `ipv4:127.0.0.1:<port>,127.0.0.1:<port>`.
   */
  grpcTargets: Record<GrpcName, string>;
  /**
   * Every service process; with replicas named `api-gateway#1`, `oauth#2`...
   */
  processes: ServiceProcess[];
  /** Processes per service (1 unless replicated). */
  replicas: number;
  /** Each api-gateway process's own origin, by replica (behind the entry point when replicated; else `[apiUrl]`). */
  readonly replicaApiUrls: string[];
  /** The last lines of every service, formatted, for failure messages. */
  recentLogs(count?: number): string;
  /** SIGTERM to every service (edge services first), SIGKILL after 10 s. */
  stop(): Promise<void>;
  /**
   * Starts a service again with the same environment and socket, or TCP port for a backend's
   * replica (stopping it first if it runs); resolves once it reports listening and the stack
   * is ready again. With replicas, a service's name (`oauth`) restarts each of its replicas,
   * a replica's (`oauth#2`) that one. An edge started on port 0 may get another port: read
   * `ports` / `apiUrl` again.
   */
  restart(name: string): Promise<ServiceProcess>;
}

export interface ServiceFolder {
  name: string;
  dir: string;
  main: string;
  isBuilt: boolean;
  hasPrisma: boolean;
}

/** Migrates, starts every service wired together, waits until each reports listening and api-gateway's /readyz is 200. */
export function startStack(options: StackOptions): Promise<Stack>;
/** The service folders under `<root>/services` (those with a package.json). */
export function findServices(root: string): ServiceFolder[];
export const REPO_ROOT: string;
