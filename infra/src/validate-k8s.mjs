#!/usr/bin/env node
/**
 * Validates Kubernetes objects offline, against the schemas `kubernetes-models` bundles
 * (the API of about Kubernetes 1.34, compiled to ajv validators; no cluster, no network):
 *
 * 1. The schema pass: each object through its model's validator (types, required
 *    fields, enums, formats).
 * 2. The strict pass: every field of the object must be one the schema names. The
 *    bundled schemas let unknown fields through (like kubeconform without -strict), and
 *    they come compiled, not as JSON to walk; so the strict pass asks the validator
 *    itself. It replaces each field's value, one at a time, with a value no schema type
 *    accepts (a Symbol): a field the schema describes (a property, or an entry of a
 *    typed map such as `labels`) then fails at that path; a field the validator says
 *    nothing about is not in the schema. Fields whose schema accepts anything (free-form
 *    JSON) are reported the same way: ACS's manifests have none.
 * 3. Custom resources (an API group outside Kubernetes' own, such as CloudNativePG's
 *    `postgresql.cnpg.io`) are reported as skipped, by kind and name: no npm package
 *    publishes CloudNativePG's schemas. For a group that has one (`@kubernetes-models/<name>`
 *    covers cert-manager, KEDA and others), `modelModule` would map the group to it.
 *
 * As a command: `kubectl kustomize k8s/overlays/production | node infra/src/validate-k8s.mjs`
 * (or with YAML files as arguments) prints one line per problem and per skipped object,
 * and exits 1 on any problem. `--json` prints the report as JSON instead.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseAllDocuments } from 'yaml';

const UNACCEPTABLE = Symbol('no schema type accepts this');

/**
 * @typedef {{ apiVersion?: unknown, kind?: unknown, metadata?: { name?: unknown } }} KubeObject
 * @typedef {{ instancePath: string, message?: string, keyword?: string, params?: unknown }} SchemaError
 * @typedef {{ object: string, problems: string[], skipped?: string }} ObjectReport
 */

/** The module that holds the models of an apiVersion, or undefined for a custom resource's group. */
function modelModule(apiVersion) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group === '') return `kubernetes-models/${version}`;
  // Kubernetes' own groups: `apps`, `batch`, `policy`, ... and `*.k8s.io`.
  if (!group.includes('.') || group.endsWith('.k8s.io')) return `kubernetes-models/${group}/${version}`;
  return undefined;
}

/** The model class of an object's kind, or undefined when no installed package has one. */
async function modelOf(apiVersion, kind) {
  const specifier = modelModule(apiVersion);
  if (specifier === undefined) return undefined;
  try {
    const module = await import(specifier);
    return typeof module[kind] === 'function' ? module[kind] : undefined;
  } catch {
    return undefined;
  }
}

/** The errors the model's validator finds in data (none: an empty array). */
function schemaErrors(Model, data) {
  try {
    new Model(data).validate();
    return [];
  } catch (error) {
    if (error && Array.isArray(error.errors)) return /** @type {SchemaError[]} */ (error.errors);
    throw error;
  }
}

/** A JSON pointer token (RFC 6901), as ajv writes instancePath. */
function pointerToken(key) {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The readable path of a pointer: `/spec/template/metadata/labels/app.kubernetes.io~1name`. */
function readablePath(pointer) {
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

/**
 * The fields of data (as JSON pointers) that its schema does not name: the strict pass.
 * data is modified while it runs and restored before it returns.
 */
export function unknownFields(Model, data) {
  const unknown = [];
  function probe(container, key, pointer) {
    const value = container[key];
    container[key] = UNACCEPTABLE;
    const errors = schemaErrors(Model, data);
    container[key] = value;
    return errors.some(
      (error) => error.instancePath === pointer || error.instancePath.startsWith(`${pointer}/`),
    );
  }
  function walk(value, pointer) {
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, `${pointer}/${index}`));
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const key of Object.keys(value)) {
      const childPointer = `${pointer}/${pointerToken(key)}`;
      if (pointer === '' && (key === 'apiVersion' || key === 'kind')) continue;
      if (!probe(value, key, childPointer)) {
        unknown.push(childPointer);
        continue;
      }
      walk(value[key], childPointer);
    }
  }
  walk(data, '');
  return unknown;
}

/** `Deployment/oauth` (with the apiVersion when it is not a core one). */
function nameOf(object) {
  const name = object?.metadata?.name ?? '(no name)';
  return `${object?.apiVersion ?? '(no apiVersion)'} ${object?.kind ?? '(no kind)'}/${name}`;
}

/**
 * Validates one object: the schema pass, then the strict pass.
 * @returns {Promise<ObjectReport>}
 */
export async function validateObject(object) {
  const report = { object: nameOf(object), problems: [] };
  if (object === null || typeof object !== 'object' || Array.isArray(object)) {
    report.problems.push('not an object');
    return report;
  }
  if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
    report.problems.push('apiVersion and kind must be strings');
    return report;
  }
  const Model = await modelOf(object.apiVersion, object.kind);
  if (Model === undefined) {
    if (modelModule(object.apiVersion) === undefined) {
      report.skipped = `no schema package for ${object.apiVersion}`;
    } else {
      report.problems.push(`no such kind in the Kubernetes API: ${object.apiVersion} ${object.kind}`);
    }
    return report;
  }
  const data = structuredClone(object);
  const errors = schemaErrors(Model, data);
  for (const error of errors) {
    report.problems.push(
      `${readablePath(error.instancePath) || '(object)'}: ${error.message ?? error.keyword}`,
    );
  }
  if (errors.length === 0) {
    for (const pointer of unknownFields(Model, data)) {
      report.problems.push(
        `${readablePath(pointer)}: not a field of ${object.kind} in the Kubernetes schema`,
      );
    }
  }
  return report;
}

/** Validates every document of a YAML stream (a `kubectl kustomize` output). */
export async function validateYaml(text) {
  const reports = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) {
      reports.push({ object: '(YAML)', problems: document.errors.map((error) => error.message) });
      continue;
    }
    const object = document.toJS();
    if (object === null || object === undefined) continue;
    reports.push(await validateObject(object));
  }
  return reports;
}

async function main(argv) {
  const json = argv.includes('--json');
  const files = argv.filter((arg) => arg !== '--json');
  const texts =
    files.length === 0 ? [readFileSync(0, 'utf8')] : files.map((file) => readFileSync(file, 'utf8'));
  const reports = (await Promise.all(texts.map(validateYaml))).flat();
  const failed = reports.filter((report) => report.problems.length > 0);
  if (json) {
    process.stdout.write(`${JSON.stringify(reports)}\n`);
  } else {
    for (const report of reports) {
      for (const problem of report.problems) process.stdout.write(`${report.object}: ${problem}\n`);
      if (report.skipped) process.stdout.write(`${report.object}: skipped (${report.skipped})\n`);
    }
    process.stdout.write(
      `${reports.length} objects: ${failed.length} invalid, ${reports.filter((r) => r.skipped).length} skipped\n`,
    );
  }
  process.exitCode = failed.length > 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main(process.argv.slice(2));
}
