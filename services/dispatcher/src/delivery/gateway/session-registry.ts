import { randomBytes } from 'node:crypto';
import { dispatchPayload, type GatewayPayload } from '../../domain/gateway-payload';
import { ReplayBuffer } from '../../domain/replay-buffer';
import { shardOf } from '../../domain/shard-of';
import type { BusMessage, DispatchBus } from './dispatch-bus';

/** Where a session's payloads go while a socket is attached. */
export interface SessionSink {
  send(payload: GatewayPayload): void;
  /** The session was ended by the server (e.g. the bot token was reset). */
  end(code: { code: number; reason: string }): void;
}

/** One gateway session: lives on this replica, outlives its socket for the resume window. */
export interface Session {
  readonly id: string;
  readonly applicationId: string;
  readonly shard: [number, number] | null;
  seq: number;
  sink: SessionSink | null;
  readonly buffer: ReplayBuffer;
  expiry: NodeJS.Timeout | null;
  unsubscribe: () => void;
}

/**
 * The sessions of this replica: creates them (subscribing to their application's
 * dispatches), numbers and buffers every dispatch, keeps a detached session for the
 * resume window, and hands it to the socket that resumes it.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly bus: DispatchBus,
    private readonly options: { resumeWindowMs: number; replayBufferSize: number },
  ) {}

  /** A new session attached to `sink`. */
  create(applicationId: string, shard: [number, number] | null, sink: SessionSink): Session {
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      applicationId,
      shard,
      seq: 0,
      sink,
      buffer: new ReplayBuffer(this.options.replayBufferSize),
      expiry: null,
      unsubscribe: () => undefined,
    };
    session.unsubscribe = this.bus.subscribe(applicationId, (message) => this.receive(session, message));
    this.sessions.set(session.id, session);
    return session;
  }

  /** Numbers, buffers and sends a dispatch (buffered only while detached). */
  dispatch(session: Session, t: string, d: unknown): void {
    session.seq += 1;
    const payload = dispatchPayload(t, session.seq, d);
    session.buffer.push(payload);
    session.sink?.send(payload);
  }

  /** The socket went away: the session waits for a resume, then ends. */
  detach(session: Session, sink: SessionSink): void {
    if (session.sink !== sink) return;
    session.sink = null;
    session.expiry = setTimeout(() => this.destroy(session), this.options.resumeWindowMs);
    session.expiry.unref();
  }

  /**
   * Reattaches a session for a resume: the dispatches after `seq`, or undefined when the
   * session is unknown here, belongs to another application, or can no longer replay.
   */
  resume(
    sessionId: string,
    applicationId: string,
    seq: number,
    sink: SessionSink,
  ): { session: Session; missed: GatewayPayload[] } | undefined {
    const session = this.sessions.get(sessionId);
    if (!session || session.applicationId !== applicationId) return undefined;
    const missed = session.buffer.after(seq, session.seq);
    if (!missed) {
      this.destroy(session);
      return undefined;
    }
    if (session.expiry) clearTimeout(session.expiry);
    session.expiry = null;
    const previous = session.sink;
    session.sink = sink;
    // A client resuming on a new socket while the old one lingers: the old one is done.
    previous?.end({ code: 4000, reason: 'Session resumed elsewhere.' });
    return { session, missed };
  }

  /** Ends a session for good. */
  destroy(session: Session): void {
    if (session.expiry) clearTimeout(session.expiry);
    session.unsubscribe();
    this.sessions.delete(session.id);
  }

  /** Ends every session (shutdown). */
  closeAll(): void {
    for (const session of [...this.sessions.values()]) {
      session.sink?.end({ code: 4000, reason: 'Server restarting.' });
      this.destroy(session);
    }
  }

  /** Number of live sessions (for logs and tests). */
  get size(): number {
    return this.sessions.size;
  }

  private receive(session: Session, message: BusMessage): void {
    if (message.kind === 'invalidate') {
      session.sink?.end({ code: 4004, reason: 'Authentication failed.' });
      this.destroy(session);
      return;
    }
    if (session.shard && message.guildId && shardOf(message.guildId, session.shard[1]) !== session.shard[0])
      return;
    this.dispatch(session, message.t, message.d);
  }
}
