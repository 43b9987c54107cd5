import { adminExpect } from '../../infra/src/admin-client';
import { GatewayTestClient } from '../helpers/gateway-client';
import type { TestStack } from './start-test-stack';

/** One HTTP answer: status and parsed JSON body (null when empty). */
export interface Answer {
  status: number;
  body: any;
}

/** Calls the public API; resolves whatever the status. */
export async function api(
  stack: Pick<TestStack, 'apiUrl'>,
  method: string,
  path: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(`${stack.apiUrl}/api/v10${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: token } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/**
 * A user of the chat client: a session token (`POST /admin/users/{id}/sessions`, sent with
 * no prefix) that invokes commands through `POST /interactions`, and optionally a gateway
 * session identified with the same token that receives the user's interaction events.
 */
export class ChatUser {
  gateway?: GatewayTestClient;
  sessionId?: string;
  private nonces = 0;

  private constructor(
    private readonly stack: TestStack,
    readonly userId: string,
    readonly token: string,
  ) {}

  static async open(stack: TestStack, userId: string): Promise<ChatUser> {
    const session = await adminExpect(stack.admin, 201, 'POST', `/admin/users/${userId}/sessions`);
    return new ChatUser(stack, userId, session.token);
  }

  /** Opens the user's gateway session (READY gives its session_id). */
  async connect(): Promise<this> {
    this.gateway = await GatewayTestClient.connect(`ws://127.0.0.1:${this.stack.ports.gateway}`);
    const ready = await this.gateway.identify(this.token, { capabilities: 16381 });
    this.sessionId = ready.d.session_id;
    return this;
  }

  /** A nonce as the client makes one: a snowflake-like decimal string, unique per call. */
  nonce(): string {
    return String((BigInt(Date.now() - 1420070400000) << 22n) + BigInt(++this.nonces));
  }

  /**
   * `POST /interactions` with `body` (session_id and a nonce added unless given);
   * `wait` asks for the outcome (ACS extension).
   */
  invoke(body: Record<string, unknown>, { wait = true }: { wait?: boolean } = {}): Promise<Answer> {
    return api(this.stack, 'POST', `/interactions${wait ? '?wait=true' : ''}`, {
      token: this.token,
      body: { nonce: this.nonce(), ...(this.sessionId ? { session_id: this.sessionId } : {}), ...body },
    });
  }

  close(): void {
    this.gateway?.close(1000);
  }
}
