import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { findServices } from '../src/find-services';
import { SERVICE_WIRING } from '../src/service-wiring';

// The Kubernetes manifests, checked without a cluster: the base and every overlay render
// with `kubectl kustomize`; every object validates against the Kubernetes schemas, with
// a strict pass for unknown fields (infra/src/validate-k8s.mjs); custom resources with no
// schema package are named as skipped. Then what the architecture says of them: each
// service on disk is deployed, runs as its own ServiceAccount, has resources, probes, a
// budget, an autoscaler and (if it owns a schema) a migration Job, and its NetworkPolicy
// allows exactly the calls infra/src/service-wiring.js draws, plus NATS, PostgreSQL,
// Redis, OTLP and DNS, and the internet only where apps' URLs are called.

const ROOT = path.join(__dirname, '..', '..');
const K8S = path.join(ROOT, 'k8s');
const VALIDATOR = path.join(ROOT, 'infra', 'src', 'validate-k8s.mjs');

/**
 * The services that call apps' URLs: interactions endpoints and webhook events, and oauth
 * for apps' OpenID issuers (discovery documents and JWKS).
 */
const CALLS_APPS = ['dispatcher', 'interactions', 'oauth'];
/** The services that keep counters in Redis. */
const USES_REDIS = ['api-gateway'];
/** The services that store attachments (BLOB_STORE_URL). */
const STORES_BLOBS = ['api-gateway', 'interactions'];
/** Address ranges the internet egress must leave out: the cluster's own and the link-local. */
const PRIVATE_RANGES = [
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed YAML of any kind
type KubeObject = Record<string, any>;
interface Report {
  object: string;
  problems: string[];
  skipped?: string;
}

/** What `kubectl kustomize <dir>` prints, or the error it gives. */
function render(dir: string): { yaml?: string; error?: string } {
  try {
    return { yaml: execFileSync('kubectl', ['kustomize', path.join(K8S, dir)], { encoding: 'utf8' }) };
  } catch (error) {
    return { error: String((error as { stderr?: string }).stderr || error) };
  }
}

/** The validator's report on a YAML stream (it runs as an ES module, in its own process). */
function runValidator(yaml: string): { reports: Report[]; status: number | null } {
  const run = spawnSync(process.execPath, [VALIDATOR, '--json'], { input: yaml, encoding: 'utf8' });
  if (run.stdout === '') throw new Error(`the validator failed: ${run.stderr}`);
  return { reports: JSON.parse(run.stdout) as Report[], status: run.status };
}

/** The report, checking that the validator's exit status agrees with it (CI scripts rely on it). */
function validate(yaml: string): Report[] {
  const { reports, status } = runValidator(yaml);
  expect(status).toBe(reports.some((report) => report.problems.length > 0) ? 1 : 0);
  return reports;
}

function parse(yaml: string): KubeObject[] {
  return parseAllDocuments(yaml)
    .map((document) => document.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

function problemsOf(reports: Report[]): string[] {
  return reports.flatMap((report) => report.problems.map((problem) => `${report.object}: ${problem}`));
}

const overlays = fs
  .readdirSync(path.join(K8S, 'overlays'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `overlays/${entry.name}`)
  .sort();
const builds = ['base', ...overlays].map((dir) => ({ dir, ...render(dir) }));
const runs = new Map(
  builds.map((build) => [build.dir, build.yaml === undefined ? undefined : runValidator(build.yaml)]),
);
const reports = new Map([...runs].map(([dir, run]) => [dir, run?.reports ?? []]));
const objects = new Map(
  builds.map((build) => [build.dir, build.yaml === undefined ? [] : parse(build.yaml)]),
);
const skipped = [...reports].flatMap(([dir, list]) =>
  list
    .filter((report) => report.skipped !== undefined)
    .map((report) => [dir, report.object, report.skipped!] as const),
);

const services = findServices(ROOT);
const wired = SERVICE_WIRING.filter((row) => services.some((service) => service.name === row.name));
const serviceOfGrpc = new Map(
  SERVICE_WIRING.flatMap((row) => (row.grpc ? [[row.grpc, row.name] as const] : [])),
);

/** The services a wiring row calls (by service name, with or without a folder yet). */
function peersOf(row: (typeof SERVICE_WIRING)[number]): string[] {
  const grpc = new Proxy({}, { get: (_target, name) => `grpc:${String(name)}` }) as Parameters<
    typeof row.env
  >[0]['grpc'];
  const env = row.env({
    grpc,
    ports: { http: 0, gateway: 0 },
    host: '127.0.0.1',
    adminToken: 'x'.repeat(16),
  });
  return Object.entries(env)
    .filter(([variable]) => variable.endsWith('_GRPC_URL'))
    .map(([, value]) => serviceOfGrpc.get(value.replace(/^grpc:/, '') as never)!)
    .sort();
}

function find(list: KubeObject[], kind: string, name: string): KubeObject | undefined {
  return list.find((object) => object.kind === kind && object.metadata?.name === name);
}

describe.each(builds.map((build) => [build.dir, build] as const))('k8s/%s', (dir, build) => {
  it('renders with kubectl kustomize', () => {
    expect(build.error).toBeUndefined();
    expect(objects.get(dir)!.length).toBeGreaterThan(0);
  });

  it('validates against the Kubernetes schemas, unknown fields included', () => {
    expect(problemsOf(reports.get(dir)!)).toEqual([]);
    expect(runs.get(dir)?.status).toBe(0);
  });

  it('runs every pod under Pod Security restricted, and long-running ones with requests, a memory limit and probes', () => {
    const workloads = objects
      .get(dir)!
      .filter((object) => ['Deployment', 'StatefulSet', 'Job'].includes(object.kind));
    for (const workload of workloads) {
      const pod = workload.spec.template.spec;
      for (const container of pod.containers as KubeObject[]) {
        const where = `${workload.kind}/${workload.metadata.name}/${container.name}`;
        expect([
          where,
          {
            runAsNonRoot: container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot,
            seccomp: (container.securityContext?.seccompProfile ?? pod.securityContext?.seccompProfile)?.type,
            allowPrivilegeEscalation: container.securityContext?.allowPrivilegeEscalation,
            drop: container.securityContext?.capabilities?.drop,
          },
        ]).toEqual([
          where,
          { runAsNonRoot: true, seccomp: 'RuntimeDefault', allowPrivilegeEscalation: false, drop: ['ALL'] },
        ]);
        if (workload.kind === 'Job') continue;
        expect([where, container.resources?.requests?.cpu, container.resources?.requests?.memory]).toEqual([
          where,
          expect.any(String),
          expect.any(String),
        ]);
        expect([where, container.resources?.limits?.memory]).toEqual([where, expect.any(String)]);
        expect([where, container.readinessProbe, container.livenessProbe]).toEqual([
          where,
          expect.any(Object),
          expect.any(Object),
        ]);
      }
    }
  });

  it('defines no Secret: secrets are referenced only', () => {
    expect(objects.get(dir)!.filter((object) => object.kind === 'Secret')).toEqual([]);
  });
});

// Custom resources no npm package has schemas for: named here, and in Jest's output as skipped.
describe('custom resources without a schema package', () => {
  it('are only CloudNativePG clusters', () => {
    expect([...new Set(skipped.map(([, object]) => object.replace(/\/[^/]*$/, '')))]).toEqual([
      'postgresql.cnpg.io/v1 Cluster',
    ]);
  });
  it.skip.each(skipped.map(([dir, object, reason]) => [`${dir}: ${object}`, reason]))(
    '%s is not validated (%s)',
    () => undefined,
  );
});

describe('the validator', () => {
  const deployment = (container: KubeObject): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'example', labels: { 'app.kubernetes.io/name': 'example' } },
    spec: {
      selector: { matchLabels: { app: 'example' } },
      template: { metadata: { labels: { app: 'example' } }, spec: { containers: [container] } },
    },
  });
  const container = { name: 'example', image: 'example', ports: [{ name: 'http', containerPort: 8080 }] };
  const run = (...list: KubeObject[]): Report[] =>
    validate(list.map((object) => JSON.stringify(object)).join('\n---\n'));

  it('passes a valid object', () => {
    expect(run(deployment(container))).toEqual([{ object: 'apps/v1 Deployment/example', problems: [] }]);
  });

  it('fails a wrong type, a missing field, an unknown kind', () => {
    const wrongType = deployment(container);
    wrongType.spec.replicas = 'three';
    const missing = deployment({ image: 'example' });
    expect(
      problemsOf(
        run(wrongType, missing, { apiVersion: 'apps/v1', kind: 'Deploymnt', metadata: { name: 'x' } }),
      ),
    ).toEqual([
      'apps/v1 Deployment/example: spec.replicas: must be integer',
      'apps/v1 Deployment/example: spec.template.spec.containers.0: must have required property name',
      'apps/v1 Deploymnt/x: no such kind in the Kubernetes API: apps/v1 Deploymnt',
    ]);
  });

  it('fails a field the schema does not have, at any depth, and keeps typed maps and int-or-string', () => {
    const policy = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'example', annotations: { 'example.com/any-key': 'x' } },
      spec: { podSelector: {}, ingress: [{ form: [], ports: [{ port: 'grpc' }, { port: 8080 }] }] },
    };
    expect(problemsOf(run(deployment({ ...container, bogusField: true }), policy))).toEqual([
      'apps/v1 Deployment/example: spec.template.spec.containers.0.bogusField: not a field of Deployment in the Kubernetes schema',
      'networking.k8s.io/v1 NetworkPolicy/example: spec.ingress.0.form: not a field of NetworkPolicy in the Kubernetes schema',
    ]);
  });

  it('names a custom resource it has no schema for as skipped', () => {
    const cluster = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 'x' },
      spec: { any: 1 },
    };
    expect(run(cluster)).toEqual([
      { object: 'example.com/v1 Thing/x', problems: [], skipped: 'no schema package for example.com/v1' },
    ]);
  });

  it('fails a rendered overlay with one unknown field added', () => {
    const production = objects.get('overlays/production')!.map((object) => structuredClone(object));
    find(
      production,
      'Deployment',
      'api-gateway',
    )!.spec.template.spec.containers[0].readinessProbe.httpGet.paht = '/';
    expect(problemsOf(run(...production))).toEqual([
      'apps/v1 Deployment/api-gateway: spec.template.spec.containers.0.readinessProbe.httpGet.paht: not a field of Deployment in the Kubernetes schema',
    ]);
  });
});

describe('the base', () => {
  const base = objects.get('base')!;
  const kustomization = parse(fs.readFileSync(path.join(K8S, 'base', 'kustomization.yaml'), 'utf8'))[0]!;
  const folders = (kustomization.resources as string[]).filter((resource) =>
    fs.existsSync(path.join(K8S, 'base', resource, 'kustomization.yaml')),
  );

  it('has a folder for each service on disk, and no other', () => {
    expect(folders.sort()).toEqual(services.map((service) => service.name).sort());
  });

  it.each(services.map((service) => [service.name, service] as const))(
    '%s runs as its own ServiceAccount, with resources, probes, a budget, an autoscaler and its migrations',
    (name, service) => {
      const deployment = find(base, 'Deployment', name)!;
      expect(deployment).toBeDefined();
      const pod = deployment.spec.template.spec;
      expect(pod.serviceAccountName).toBe(name);
      expect(find(base, 'ServiceAccount', name)).toMatchObject({ automountServiceAccountToken: false });
      for (const container of pod.containers) {
        expect(container.resources?.requests).toEqual({
          cpu: expect.any(String),
          memory: expect.any(String),
        });
        expect(container.resources?.limits?.memory).toEqual(expect.any(String));
        expect(container).toEqual(
          expect.objectContaining({
            startupProbe: expect.any(Object),
            readinessProbe: expect.any(Object),
            livenessProbe: expect.any(Object),
          }),
        );
      }
      // Prometheus finds the metrics port by annotation, and the port is the one METRICS_PORT binds.
      expect(deployment.spec.template.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9464',
        'prometheus.io/path': '/metrics',
      });
      expect(pod.containers[0].ports).toContainEqual({ name: 'metrics', containerPort: 9464 });
      expect(find(base, 'ConfigMap', 'acs-config')?.data.METRICS_PORT).toBe('9464');
      expect(find(base, 'PodDisruptionBudget', name)?.spec.selector).toEqual(deployment.spec.selector);
      expect(find(base, 'HorizontalPodAutoscaler', name)?.spec.scaleTargetRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name,
      });
      const migration = find(base, 'Job', `${name}-migrate`);
      expect(migration !== undefined).toBe(service.hasPrisma);
      if (migration) {
        expect(migration.spec.template.metadata.labels).toMatchObject({
          'app.kubernetes.io/part-of': 'acs',
          'app.kubernetes.io/component': 'migration',
        });
        expect(migration.spec.template.spec.serviceAccountName).toBe(name);
      }
    },
  );

  it('marks only ACS pods app.kubernetes.io/part-of=acs, which the data stores and the collector admit', () => {
    for (const [, list] of objects) {
      const marked = list
        .filter((object) => object.spec?.template?.metadata?.labels?.['app.kubernetes.io/part-of'] === 'acs')
        .map((object) => object.metadata.name as string);
      const allowed = services.flatMap((service) => [service.name, `${service.name}-migrate`]);
      expect(marked.filter((name) => !allowed.includes(name))).toEqual([]);
    }
  });
});

/** A NetworkPolicy's rules as `peer:port` strings: `oauth:grpc`, `kube-dns:53/UDP`, `anywhere:http`. */
function rulesOf(policy: KubeObject, direction: 'ingress' | 'egress'): string[] {
  const rules: KubeObject[] = policy.spec[direction] ?? [];
  return rules
    .flatMap((rule) => {
      const peers: KubeObject[] = rule[direction === 'ingress' ? 'from' : 'to'] ?? [{}];
      const ports: KubeObject[] = rule.ports ?? [{}];
      return peers.flatMap((peer) => {
        const name =
          peer.ipBlock?.cidr ??
          (peer.namespaceSelector
            ? peer.podSelector?.matchLabels?.['k8s-app']
            : (peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] ?? 'anywhere'));
        return ports.map((port) =>
          port.port === undefined
            ? `${name}:any`
            : `${name}:${port.port}${port.protocol === 'UDP' ? '/UDP' : ''}`,
        );
      });
    })
    .sort();
}

describe('NetworkPolicies', () => {
  const base = objects.get('base')!;

  it.each(wired.map((row) => [row.name, row] as const))(
    '%s: ingress from its callers and the public edge, egress to its peers, its stores, OTLP and DNS',
    (name, row) => {
      const policy = find(base, 'NetworkPolicy', name)!;
      expect(policy.spec.podSelector).toEqual({ matchLabels: { 'app.kubernetes.io/name': name } });
      expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);

      const callers = SERVICE_WIRING.filter((caller) => peersOf(caller).includes(name)).map(
        (caller) => caller.name,
      );
      const deployment = find(base, 'Deployment', name)!;
      const usesDatabase = deployment.spec.template.spec.containers.some((container: KubeObject) =>
        (container.env ?? []).some((variable: KubeObject) => variable.name === 'DATABASE_URL'),
      );
      expect(rulesOf(policy, 'ingress')).toEqual(
        [
          ...Object.keys(row.tcp ?? {}).map((port) => `anywhere:${port}`),
          ...callers.map((caller) => `${caller}:grpc`),
        ].sort(),
      );
      expect(rulesOf(policy, 'egress')).toEqual(
        [
          'kube-dns:53',
          'kube-dns:53/UDP',
          ...peersOf(row).map((peer) => `${peer}:grpc`),
          'nats:4222',
          ...(usesDatabase ? ['postgres:5432'] : []),
          ...(USES_REDIS.includes(name) ? ['redis:6379'] : []),
          'otel-collector:4317',
          'otel-collector:4318',
          ...(CALLS_APPS.includes(name) ? ['0.0.0.0/0:any', '::/0:any'] : []),
        ].sort(),
      );
      for (const rule of policy.spec.egress as KubeObject[]) {
        for (const peer of rule.to ?? []) {
          if (peer.ipBlock?.cidr === '0.0.0.0/0')
            expect(peer.ipBlock.except).toEqual(expect.arrayContaining(PRIVATE_RANGES));
          if (peer.ipBlock?.cidr === '::/0')
            expect(peer.ipBlock.except).toEqual(expect.arrayContaining(['fc00::/7', 'fe80::/10']));
        }
      }
    },
  );

  it('admit Prometheus, from its namespace, to the metrics port of every ACS pod and to nothing else', () => {
    const scrape = find(base, 'NetworkPolicy', 'acs-metrics-scrape')!;
    expect(scrape.spec.podSelector).toEqual({ matchLabels: { 'app.kubernetes.io/part-of': 'acs' } });
    expect(scrape.spec.policyTypes).toEqual(['Ingress']);
    expect(scrape.spec.ingress).toEqual([
      {
        from: [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
            podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
          },
        ],
        ports: [{ port: 'metrics', protocol: 'TCP' }],
      },
    ]);
  });

  it('drop any other ingress, and let migration Jobs reach PostgreSQL and DNS only', () => {
    expect(find(base, 'NetworkPolicy', 'acs-default-deny-ingress')?.spec).toEqual({
      podSelector: {},
      policyTypes: ['Ingress'],
    });
    const migrations = find(base, 'NetworkPolicy', 'acs-migrations')!;
    expect(rulesOf(migrations, 'ingress')).toEqual([]);
    expect(rulesOf(migrations, 'egress')).toEqual(['kube-dns:53', 'kube-dns:53/UDP', 'postgres:5432']);
  });

  it.each(overlays)(
    '%s: every pod has its own egress policy, and the data stores admit selected pods only',
    (dir) => {
      const list = objects.get(dir)!;
      const policies = list.filter((object) => object.kind === 'NetworkPolicy');
      const selects = (policy: KubeObject, labels: Record<string, string>): boolean => {
        const wanted = Object.entries(policy.spec.podSelector.matchLabels ?? {});
        return wanted.length > 0 && wanted.every(([key, value]) => labels[key] === value);
      };
      for (const workload of list.filter((object) =>
        ['Deployment', 'StatefulSet', 'Job'].includes(object.kind),
      )) {
        const labels = workload.spec.template.metadata?.labels ?? {};
        const egress = policies.filter(
          (policy) => policy.spec.policyTypes.includes('Egress') && selects(policy, labels),
        );
        expect([workload.metadata.name, egress.length]).toEqual([workload.metadata.name, 1]);
      }
      for (const store of ['nats', 'postgres', 'redis', 'otel-collector']) {
        const policy = policies.find((candidate) => candidate.metadata.name === store)!;
        expect(policy).toBeDefined();
        // A rule without `from`, or with an empty peer, would admit any pod.
        for (const rule of policy.spec.ingress as KubeObject[]) {
          expect(rule.from?.length).toBeGreaterThan(0);
          for (const peer of rule.from)
            expect(
              Object.keys(peer.podSelector?.matchLabels ?? peer.namespaceSelector?.matchLabels ?? {}),
            ).not.toEqual([]);
        }
      }
    },
  );
});

describe('overlays', () => {
  it.each(overlays)('%s sets BLOB_STORE_URL where attachments are stored, and nowhere else', (dir) => {
    const holders = objects
      .get(dir)!
      .filter((object) =>
        (object.spec?.template?.spec?.containers ?? []).some((container: KubeObject) =>
          (container.env ?? []).some((variable: KubeObject) => variable.name === 'BLOB_STORE_URL'),
        ),
      )
      .map((object) => object.metadata.name);
    expect(holders.sort()).toEqual(STORES_BLOBS);
  });

  it('production serves no web console (CONSOLE_ENABLED false on api-gateway); the local overlay does', () => {
    const consoleOf = (overlay: string) => {
      const list = objects.get(overlay)!;
      const gateway = find(list, 'Deployment', 'api-gateway')!;
      return variableOf(list, gateway.spec.template.spec.containers[0], 'CONSOLE_ENABLED');
    };
    expect(consoleOf('overlays/production')).toBe('false');
    expect(consoleOf('overlays/local')).toBeUndefined();
  });

  it('production keeps the event stream on each of the three NATS servers, and runs PostgreSQL in CloudNativePG', () => {
    const production = objects.get('overlays/production')!;
    expect(find(production, 'StatefulSet', 'nats')?.spec.replicas).toBe(3);
    expect(find(production, 'ConfigMap', 'acs-config')?.data.EVENTS_STREAM_REPLICAS).toBe('3');
    const cluster = production.find((object) => object.kind === 'Cluster')!;
    expect(cluster.spec.instances).toBe(3);
    // Every service's DATABASE_URL is the operator's application Secret.
    const urls = production
      .filter((object) => ['Deployment', 'Job'].includes(object.kind))
      .flatMap((object) => object.spec.template.spec.containers as KubeObject[])
      .flatMap((container) => (container.env ?? []) as KubeObject[])
      .filter((variable) => variable.name === 'DATABASE_URL');
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      expect(url.valueFrom.secretKeyRef).toEqual({ name: `${cluster.metadata.name}-app`, key: 'uri' });
    }
  });
});

/** Millicores of a Kubernetes CPU quantity (`500m`, `1`, `0.5`). */
function millicores(quantity: string): number {
  return quantity.endsWith('m') ? Number(quantity.slice(0, -1)) : Number(quantity) * 1000;
}

/** A container's value of a variable: its own `env`, else the acs-config ConfigMap it loads. */
function variableOf(list: KubeObject[], container: KubeObject, name: string): string | undefined {
  const own = (container.env ?? []).find((variable: KubeObject) => variable.name === name);
  if (own) return own.value;
  return (container.envFrom ?? [])
    .map((source: KubeObject) => find(list, 'ConfigMap', source.configMapRef?.name)?.data?.[name])
    .find((value: string | undefined) => value !== undefined);
}

describe('scaling', () => {
  const base = objects.get('base')!;

  it.each(wired.filter((row) => row.grpc).map((row) => [row.name, row] as const))(
    '%s: a headless Service, dialled by every caller as dns:///<service>:<port>',
    (name) => {
      // A ClusterIP Service would pin each client's one HTTP/2 connection to one pod: the
      // headless one lets the callers' round_robin resolve and use every pod.
      const service = find(base, 'Service', name)!;
      expect(service.spec.clusterIP).toBe('None');
      const grpcPort = (service.spec.ports as KubeObject[]).find((port) => port.name === 'grpc')!;
      expect(grpcPort).toMatchObject({ targetPort: 'grpc', appProtocol: 'grpc' });
      const container = find(base, 'Deployment', name)!.spec.template.spec.containers[0];
      expect(container.ports).toContainEqual({ name: 'grpc', containerPort: grpcPort.port });
      expect(variableOf(base, container, 'GRPC_ADDRESS')).toBe(`0.0.0.0:${grpcPort.port}`);
      const callers = wired.filter((caller) => peersOf(caller).includes(name));
      expect(callers.length).toBeGreaterThan(0);
      for (const caller of callers) {
        const callerContainer = find(base, 'Deployment', caller.name)!.spec.template.spec.containers[0];
        const dialled = (callerContainer.env as KubeObject[])
          .filter((variable) => variable.name.endsWith('_GRPC_URL'))
          .map((variable) => variable.value as string);
        expect([caller.name, dialled]).toEqual([
          caller.name,
          expect.arrayContaining([`dns:///${name}:${grpcPort.port}`]),
        ]);
      }
    },
  );

  it.each(wired.map((row) => [row.name] as const))(
    '%s: the HPA adds pods at a share of a CPU request a pod can use (not at a few millicores)',
    (name) => {
      for (const dir of ['base', 'overlays/production']) {
        const list = objects.get(dir)!;
        const container = find(list, 'Deployment', name)!.spec.template.spec.containers[0];
        const hpa = find(list, 'HorizontalPodAutoscaler', name)!;
        const target = hpa.spec.metrics.find((metric: KubeObject) => metric.resource?.name === 'cpu');
        const utilisation = target.resource.target.averageUtilization as number;
        // A pod's event loop saturates near 800 millicores (k8s/README.md, Capacity): it
        // should scale out well before, and not at a tenth of what it does.
        const scalesAt = (millicores(container.resources.requests.cpu) * utilisation) / 100;
        expect([dir, scalesAt >= 300 && scalesAt <= 700]).toEqual([dir, true]);
      }
    },
  );

  it.each(overlays)(
    '%s: the pools of every pod at the HPA maxima fit within PostgreSQL’s max_connections',
    (dir) => {
      const list = objects.get(dir)!;
      const cluster = list.find((object) => object.kind === 'Cluster');
      const single = find(list, 'StatefulSet', 'postgres');
      const args: string[] = single?.spec.template.spec.containers[0].args ?? [];
      const limit = Number(
        cluster?.spec.postgresql.parameters.max_connections ??
          args.find((arg) => arg.startsWith('max_connections='))?.split('=')[1] ??
          100,
      );
      let pools = 0;
      for (const deployment of list.filter((object) => object.kind === 'Deployment')) {
        const container = deployment.spec.template.spec.containers[0];
        if (!(container.env ?? []).some((variable: KubeObject) => variable.name === 'DATABASE_URL')) continue;
        const pool = Number(variableOf(list, container, 'DB_POOL_SIZE'));
        const maxReplicas = find(list, 'HorizontalPodAutoscaler', deployment.metadata.name)!.spec.maxReplicas;
        expect([deployment.metadata.name, pool > 0]).toEqual([deployment.metadata.name, true]);
        pools += maxReplicas * pool;
      }
      expect(pools).toBeGreaterThan(0);
      // Each migration Job holds a connection while it runs; PostgreSQL keeps 3 for the superuser.
      const jobs = list.filter((object) => object.kind === 'Job').length;
      expect(pools + jobs + 3).toBeLessThanOrEqual(limit);
    },
  );
});
