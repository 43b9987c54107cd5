/**
 * The numbered parameters of a statement put together from pieces (the data-modifying
 * CTEs of one change): each value added answers its placeholder, so that no piece has to
 * know how many parameters the others took.
 */
export class StatementParameters {
  readonly values: unknown[] = [];

  /** Adds `value`; answers its placeholder (`$n`). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
