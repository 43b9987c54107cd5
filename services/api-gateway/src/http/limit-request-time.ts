import type { RequestHandler } from 'express';
import { runWithDeadline } from '@acs/service-kit';

/**
 * Gives each request a budget of `budgetMs` for its calls to services: every gRPC call
 * made while serving it (through `callUnary`) ends by then, whatever its own default, and
 * the services it calls pass what is left on to theirs. A request that runs out answers
 * 504 instead of holding its connection while a chain of fresh deadlines runs.
 */
export function limitRequestTime(budgetMs: number): RequestHandler {
  return (_req, _res, next) => runWithDeadline(Date.now() + budgetMs, next);
}
