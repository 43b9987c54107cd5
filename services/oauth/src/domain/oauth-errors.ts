import { UnknownResourceError } from '@acs/discord-errors';

/** 404 / 10002 (facts §3.2). */
export class UnknownApplicationError extends UnknownResourceError {
  constructor() {
    super(10002, 'Unknown Application');
  }
}

/** 404 / 10013 (facts §3.2). */
export class UnknownUserError extends UnknownResourceError {
  constructor() {
    super(10013, 'Unknown User');
  }
}
