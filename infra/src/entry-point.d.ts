// Types of entry-point.js.

export interface EntryPoint {
  /** The ports it is bound to. */
  ports: { http: number; gateway: number };
  close(): Promise<void>;
}

/**
 * The local entry point in front of replicas of the edges: HTTP round-robin over the
 * api-gateways (`X-ACS-Replica` names the one that answered), WebSocket connections
 * round-robin over the dispatchers, except `/replica/<i>`, which goes to dispatcher i
 * while it runs.
 */
export function startEntryPoint(options: {
  host: string;
  ports: { http: number; gateway: number };
  /** Each api-gateway replica's port, by replica; undefined while it does not run. */
  httpTargets: () => Array<number | undefined>;
  /** Each dispatcher replica's WebSocket port, by replica; undefined while it does not run. */
  gatewayTargets: () => Array<number | undefined>;
  say?: (line: string) => void;
}): Promise<EntryPoint>;

export const REPLICA_PATH: RegExp;
