import fs from 'node:fs';
import path from 'node:path';
import { findServices } from '../src/find-services';
import { SERVICE_WIRING } from '../src/service-wiring';

// Which service calls which, as the wiring gives each its peers (`*_GRPC_URL`), checked
// against what each service's config reads and what its Kubernetes Deployment sets, and
// then checked for cycles: calls between services go one way (issue 9).

const ROOT = path.join(__dirname, '..', '..');
const PEER_VARIABLE = /\b[A-Z][A-Z0-9_]*_GRPC_URL\b/g;

/** The services on disk, by name. */
const services = new Set(findServices(ROOT).map((s) => s.name));
/** The service each gRPC name of the wiring stands for. */
const serviceOfGrpc = new Map(SERVICE_WIRING.flatMap((row) => (row.grpc ? [[row.grpc, row.name]] : [])));

/** A wiring row's peers: each `*_GRPC_URL` it sets and the service that variable points at. */
function peersOf(row: (typeof SERVICE_WIRING)[number]): Map<string, string> {
  // Targets that say which gRPC server they are: `grpc:<name>`.
  const grpc = new Proxy({}, { get: (_target, name) => `grpc:${String(name)}` }) as Parameters<
    typeof row.env
  >[0]['grpc'];
  const env = row.env({
    grpc,
    ports: { http: 0, gateway: 0 },
    host: '127.0.0.1',
    adminToken: 'x'.repeat(16),
  });
  const peers = new Map<string, string>();
  for (const [variable, value] of Object.entries(env)) {
    if (!variable.endsWith('_GRPC_URL')) continue;
    const peer = serviceOfGrpc.get(value.replace(/^grpc:/, '') as never);
    if (peer === undefined) throw new Error(`${row.name}: ${variable} names no service of the wiring`);
    // A peer with no folder takes no call.
    if (services.has(peer)) peers.set(variable, peer);
  }
  return peers;
}

/** Every `*_GRPC_URL` a file names, sorted. */
function peerVariablesIn(file: string): string[] {
  return [...new Set(fs.readFileSync(file, 'utf8').match(PEER_VARIABLE) ?? [])].sort();
}

/** A cycle of the graph as the path that closes it (`a → b → a`), or undefined when there is none. */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  function visit(node: string): string[] | undefined {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'visiting') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  }
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

const rows = SERVICE_WIRING.filter((row) => services.has(row.name));
const graph = new Map(rows.map((row) => [row.name, [...new Set(peersOf(row).values())].sort()]));

it('wires every service on disk', () => {
  expect(rows.map((row) => row.name).sort()).toEqual([...services].sort());
});

it.each(rows.map((row) => [row.name, row] as const))(
  "%s's config reads exactly the peers the wiring gives it, and its Deployment sets them",
  (name, row) => {
    const variables = [...peersOf(row).keys()].sort();
    expect(peerVariablesIn(path.join(ROOT, 'services', name, 'src', 'config.ts'))).toEqual(variables);
    const deployment = path.join(ROOT, 'k8s', 'base', name, 'deployment.yaml');
    expect(peerVariablesIn(deployment)).toEqual(variables);
  },
);

it('has no cycle: calls between services go one way', () => {
  expect(findCycle(graph)).toBeUndefined();
  // permissions is a leaf; its callers pass it what command-registry says of commands.
  expect(graph.get('permissions')).toEqual([]);
});

it('finds a cycle, such as the one there was before permissions became a leaf', () => {
  const before = new Map([
    ['api-gateway', ['command-registry', 'oauth', 'permissions']],
    ['command-registry', ['oauth']],
    ['oauth', ['permissions']],
    ['permissions', ['command-registry']],
  ]);
  expect(findCycle(before)).toEqual(['command-registry', 'oauth', 'permissions', 'command-registry']);
  expect(findCycle(new Map([['a', ['a']]]))).toEqual(['a', 'a']);
  expect(
    findCycle(
      new Map([
        ['a', ['b']],
        ['b', []],
      ]),
    ),
  ).toBeUndefined();
});
