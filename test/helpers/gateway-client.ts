/** The gateway test client lives in @acs/testing, shared with the dispatcher's own tests. */
export { GatewayTestClient, type Received } from '@acs/testing';
