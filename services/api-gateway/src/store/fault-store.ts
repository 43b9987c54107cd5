import type { Redis } from 'ioredis';

/** A fault as it was injected: which calls it answers and how. */
export interface FaultSpec {
  /** `METHOD /path/pattern` as given (`:name` or `{name}` one segment, `*` anything). */
  route: string;
  status: number;
  /** The body to answer with; undefined: Discord's body for the status. */
  body?: Record<string, unknown>;
  delay_ms: number;
}

/** A stored fault: its spec, its id and how many calls it still answers. */
export interface Fault extends FaultSpec {
  id: string;
  /** Calls it answered at creation. */
  times: number;
  /** Calls it still answers. */
  remaining: number;
}

/** Where injected faults are kept: in Redis, shared by every replica, or in memory. */
export interface FaultStore {
  readonly store: 'redis' | 'memory';
  add(applicationId: string, fault: Omit<Fault, 'remaining'>): Promise<Fault>;
  /** The application's faults, oldest first. */
  list(applicationId: string): Promise<Fault[]>;
  /** Removes one fault (false: there was none of that id) or, without an id, all. */
  clear(applicationId: string, faultId?: string): Promise<boolean>;
  /**
   * Takes one call from the oldest fault that `matches`: the fault, or undefined when
   * none does (or the store cannot answer: a fault never fails a call by accident).
   */
  take(applicationId: string, matches: (fault: Fault) => boolean): Promise<Fault | undefined>;
}

/** Another fault has this id already (replicas whose ids met): the caller takes a new one. */
export class FaultIdTakenError extends Error {
  constructor(id: string) {
    super(`fault id ${id} is taken`);
  }
}

/** The most faults an application has at once. */
export const MAX_FAULTS_PER_APPLICATION = 100;

/** Faults outlive their last change by this long in Redis (seconds): a forgotten one goes away. */
const FAULT_TTL_SECONDS = 24 * 3600;

/**
 * Decrements a fault's remaining count atomically and drops it at zero: -1 when it is
 * gone (another replica took its last call), else what remains.
 */
const TAKE_SCRIPT = `
local left = redis.call('HGET', KEYS[2], ARGV[1])
if not left then return -1 end
left = tonumber(left) - 1
if left <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('HSET', KEYS[2], ARGV[1], left)
end
return left
`;

const byId = (a: { id: string }, b: { id: string }) =>
  a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Faults in Redis when given a client (keys under `keyPrefix`), else in this process's memory. */
export function createFaultStore(redis?: { client: Redis; keyPrefix: string }): FaultStore {
  return redis ? redisFaults(redis.client, redis.keyPrefix) : memoryFaults();
}

function memoryFaults(): FaultStore {
  const faults = new Map<string, Fault[]>();
  return {
    store: 'memory',
    async add(applicationId, fault) {
      const stored = { ...fault, remaining: fault.times };
      faults.set(applicationId, [...(faults.get(applicationId) ?? []), stored]);
      return { ...stored };
    },
    async list(applicationId) {
      return (faults.get(applicationId) ?? []).map((fault) => ({ ...fault }));
    },
    async clear(applicationId, faultId) {
      const current = faults.get(applicationId) ?? [];
      if (faultId === undefined) {
        faults.delete(applicationId);
        return true;
      }
      const kept = current.filter((fault) => fault.id !== faultId);
      faults.set(applicationId, kept);
      return kept.length < current.length;
    },
    async take(applicationId, matches) {
      const current = faults.get(applicationId);
      const fault = current?.find(matches);
      if (!current || !fault) return undefined;
      fault.remaining -= 1;
      if (fault.remaining <= 0) current.splice(current.indexOf(fault), 1);
      if (current.length === 0) faults.delete(applicationId);
      return { ...fault };
    },
  };
}

function redisFaults(client: Redis, keyPrefix: string): FaultStore {
  const specs = (applicationId: string) => `${keyPrefix}faults:${applicationId}`;
  const left = (applicationId: string) => `${keyPrefix}faults:${applicationId}:left`;

  async function list(applicationId: string): Promise<Fault[]> {
    const [stored, counts] = await Promise.all([
      client.hgetall(specs(applicationId)),
      client.hgetall(left(applicationId)),
    ]);
    const faults: Fault[] = [];
    for (const [id, text] of Object.entries(stored)) {
      const remaining = Number(counts[id]);
      if (!(remaining > 0)) continue;
      faults.push({ ...(JSON.parse(text) as Omit<Fault, 'remaining'>), remaining });
    }
    return faults.sort(byId);
  }

  return {
    store: 'redis',
    async add(applicationId, fault) {
      // Replicas' ids could meet (random node bits): a fault never overwrites another.
      if ((await client.hsetnx(specs(applicationId), fault.id, JSON.stringify(fault))) === 0)
        throw new FaultIdTakenError(fault.id);
      await client
        .multi()
        .hset(left(applicationId), fault.id, String(fault.times))
        .expire(specs(applicationId), FAULT_TTL_SECONDS)
        .expire(left(applicationId), FAULT_TTL_SECONDS)
        .exec();
      return { ...fault, remaining: fault.times };
    },
    list,
    async clear(applicationId, faultId) {
      if (faultId === undefined) {
        await client.del(specs(applicationId), left(applicationId));
        return true;
      }
      const [removed] = await Promise.all([
        client.hdel(left(applicationId), faultId),
        client.hdel(specs(applicationId), faultId),
      ]);
      return removed > 0;
    },
    async take(applicationId, matches) {
      try {
        const stored = await client.hgetall(specs(applicationId));
        const candidates = Object.entries(stored)
          .map(([id, text]) => ({ ...(JSON.parse(text) as Omit<Fault, 'remaining'>), id, remaining: 0 }))
          .filter(matches)
          .sort(byId);
        for (const fault of candidates) {
          const remaining = Number(
            await client.eval(TAKE_SCRIPT, 2, specs(applicationId), left(applicationId), fault.id),
          );
          if (remaining >= 0) return { ...fault, remaining };
        }
      } catch {
        // Redis unreachable: no fault rather than a failed call.
      }
      return undefined;
    },
  };
}
