import { InvalidFormBodyError, type ErrorLeaf, type ErrorTree } from '@acs/discord-errors';

/** A path into the request body: field names and array indices. */
export type ErrorPath = readonly (string | number)[];

interface Node {
  children: Map<string, Node>;
  errors: ErrorLeaf[];
}

function createNode(): Node {
  return { children: new Map(), errors: [] };
}

/** The key under which a node of the tree holds its own leaf list. */
const LEAF_KEY = '_errors';

/**
 * Most errors kept for the answer. Every error is counted, but a body of a megabyte could
 * otherwise describe a hundred thousand bad items in an answer many times its size.
 */
export const MAX_REPORTED_ERRORS = 1000;

/**
 * Collects validation errors into Discord's 50035 tree (facts §3.1): array indices become
 * keys "0", "1"…, and an error on the path [] is a request-level error (`errors._errors`).
 * A field named `_errors` (a client's key, e.g. in a localization dictionary) cannot have
 * a node of its own, since that key holds the leaf list: its errors go to the object that
 * holds it, so a field name never replaces or merges with a leaf list.
 */
export class FormErrors {
  private readonly root = createNode();
  private leaves = 0;

  /** Records one error at `path`. */
  add(path: ErrorPath, code: string, message: string): void {
    this.leaves += 1;
    if (this.leaves > MAX_REPORTED_ERRORS) return;
    let node = this.root;
    for (const segment of path) {
      const key = String(segment);
      if (key === LEAF_KEY) break;
      let child = node.children.get(key);
      if (!child) {
        child = createNode();
        node.children.set(key, child);
      }
      node = child;
    }
    node.errors.push({ code, message });
  }

  /** Number of errors recorded so far, reported or not (lets a caller tell whether a sub-tree added any). */
  get count(): number {
    return this.leaves;
  }

  /** Whether no error was recorded. */
  isEmpty(): boolean {
    return this.leaves === 0;
  }

  /** The 400 / 50035 answer carrying the tree. */
  toError(): InvalidFormBodyError {
    return new InvalidFormBodyError(this.toJSON());
  }

  /** Throws the 400 / 50035 answer when any error was recorded. */
  throwIfAny(): void {
    if (this.leaves > 0) throw this.toError();
  }

  /** The wire tree. Keys come from client input (e.g. a bad locale key), so they are defined, never assigned. */
  toJSON(): ErrorTree {
    return toTree(this.root);
  }
}

function toTree(node: Node): ErrorTree {
  const tree: ErrorTree = {};
  for (const [key, child] of node.children) {
    Object.defineProperty(tree, key, {
      value: toTree(child),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  if (node.errors.length > 0) tree[LEAF_KEY] = node.errors.map((e) => ({ ...e }));
  return tree;
}
