/** One gateway payload (facts §10): `s` and `t` are set only for dispatches (op 0). */
export interface GatewayPayload {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

/** A payload of another opcode than dispatch. */
export function payload(op: number, d: unknown = null): GatewayPayload {
  return { op, d, s: null, t: null };
}

/** A dispatch: event name `t`, sequence number `s`. */
export function dispatchPayload(t: string, s: number, d: unknown): GatewayPayload {
  return { op: 0, d, s, t };
}
