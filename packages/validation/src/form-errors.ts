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

/**
 * Collects validation errors into Discord's 50035 tree (facts §3.1): array indices become
 * keys "0", "1"…, and an error on the path [] is a request-level error (`errors._errors`).
 */
export class FormErrors {
  private readonly root = createNode();
  private leaves = 0;

  /** Records one error at `path`. */
  add(path: ErrorPath, code: string, message: string): void {
    let node = this.root;
    for (const segment of path) {
      const key = String(segment);
      let child = node.children.get(key);
      if (!child) {
        child = createNode();
        node.children.set(key, child);
      }
      node = child;
    }
    node.errors.push({ code, message });
    this.leaves += 1;
  }

  /** Number of errors recorded so far (lets a caller tell whether a sub-tree added any). */
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
  if (node.errors.length > 0) tree._errors = node.errors.map((e) => ({ ...e }));
  return tree;
}
