/* eslint-disable @typescript-eslint/no-explicit-any -- Discord's JSON, read field by field */
import { callApi, describeError } from '../http/call-api';
import { describeFailureReason, LOADING } from '../describe/describe-message';
import type { DiscordMessage, InteractionResult, OpenedModal } from './types';
import type { Dispatch, UserSession } from './user-session';

/** Interaction callback types (D:interactions/receiving-and-responding.mdx §Interaction Callback Type). */
const CALLBACK = {
  CHANNEL_MESSAGE: 4,
  DEFERRED_CHANNEL_MESSAGE: 5,
  DEFERRED_UPDATE_MESSAGE: 6,
  UPDATE_MESSAGE: 7,
  AUTOCOMPLETE_RESULT: 8,
  MODAL: 9,
} as const;

/** What running one interaction needs. */
export interface InteractionContext {
  base: string;
  /** The user's session token (sent with no prefix, as the chat client does). */
  token: string;
  session: UserSession;
  quietMs: number;
  finalTimeoutMs: number;
}

/** `?wait=final`'s longest `timeout_ms` (the server refuses more). */
const WAIT_FINAL_MAX_MS = 60_000;

/**
 * Sends one interaction as the user's chat client does (`POST /interactions?wait=final`,
 * naming the user's gateway session and a nonce): the server answers once the app's
 * answer is final, a deferred reply filled in included. Then follows it on that session:
 * an update until the component's message changes (the server's answer has it already
 * for a deferred one), then until no follow-up or edit comes for `quietMs`. `source` is
 * the message whose component was used.
 */
export async function runInteraction(
  context: InteractionContext,
  body: Record<string, unknown>,
  source?: DiscordMessage,
): Promise<InteractionResult> {
  const { session } = context;
  const seen: Dispatch[] = [];
  const wake = new Set<() => void>();
  const stop = session.listen((dispatch) => {
    seen.push(dispatch);
    for (const resolve of wake) resolve();
  });
  try {
    const timeoutMs = Math.max(1, Math.min(WAIT_FINAL_MAX_MS, Math.round(context.finalTimeoutMs)));
    const send = () =>
      callApi(context.base, 'POST', `/api/v10/interactions?wait=final&timeout_ms=${timeoutMs}`, {
        token: context.token,
        body: { ...body, nonce: newNonce(), session_id: session.sessionId },
      });
    let answer = await send();
    // A user invoking faster than its work budget allows (5 a second by default) waits it
    // out, as a REST client waits out a 429: the app never saw the refused one.
    for (let retries = 0; answer.status === 429 && retries < 5; retries++) {
      const retryAfter = Number((answer.body as { retry_after?: unknown } | null)?.retry_after ?? 1);
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(retryAfter * 1000)));
      answer = await send();
    }
    if (answer.status !== 200) {
      return {
        ...EMPTY,
        error: `ACS refused the interaction (the app never saw it):\n${describeError(answer)}`,
      };
    }
    const follower = new Follower(answer.body, source);
    const waitForDispatch = (untilMs: number) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          wake.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, untilMs - Date.now()));
        wake.add(done);
      });
    const finalBy = Date.now() + context.finalTimeoutMs;
    let read = 0;
    const readSeen = () => {
      let changed = false;
      for (; read < seen.length; read++) changed = follower.take(seen[read] as Dispatch) || changed;
      return changed;
    };
    readSeen();
    // The server waited for the filling already: when it gave up, so does the kit.
    while (!follower.isFinal() && !follower.serverGaveUp() && Date.now() < finalBy) {
      await waitForDispatch(finalBy);
      readSeen();
    }
    // Settled once nothing of this interaction arrived for quietMs.
    let quietFrom = Date.now();
    while (Date.now() < quietFrom + context.quietMs) {
      await waitForDispatch(quietFrom + context.quietMs);
      if (readSeen()) quietFrom = Date.now();
    }
    return follower.result(context.finalTimeoutMs);
  } finally {
    stop();
  }
}

const EMPTY: InteractionResult = {
  ok: false,
  acknowledged: false,
  deferred: false,
  ephemeral: false,
  response: null,
  followups: [],
  modal: null,
  choices: null,
  error: null,
  interaction: null,
};

/** The messages of one interaction as the user's session sees them arrive. */
class Follower {
  private readonly interactionId: string;
  private readonly callbackType: number | undefined;
  /** Every message of the interaction (and the component's message), last version, in order of arrival. */
  private readonly messages = new Map<string, DiscordMessage>();
  private readonly originalId: string | undefined;
  private sourceUpdated = false;
  private followedUp = false;

  constructor(
    private readonly outcome: any,
    private readonly source: DiscordMessage | undefined,
  ) {
    this.interactionId = String(outcome.interaction?.id ?? '');
    this.callbackType = outcome.response?.type;
    for (const message of outcome.messages ?? []) this.messages.set(message.id, message);
    const isOriginal =
      this.callbackType === CALLBACK.CHANNEL_MESSAGE ||
      this.callbackType === CALLBACK.DEFERRED_CHANNEL_MESSAGE;
    this.originalId = isOriginal ? (outcome.messages?.[0]?.id as string | undefined) : undefined;
  }

  /** Takes one dispatch; answers whether it was about this interaction. */
  take({ t, d }: Dispatch): boolean {
    if (t !== 'MESSAGE_CREATE' && t !== 'MESSAGE_UPDATE') return false;
    const ofThis = d?.interaction_metadata?.id === this.interactionId;
    const isSource = this.source !== undefined && d?.id === this.source.id;
    if (!ofThis && !isSource && !this.messages.has(d?.id)) return false;
    if (isSource) this.sourceUpdated = true;
    else if (d.id !== this.originalId) this.followedUp = true;
    this.messages.set(d.id, { ...this.messages.get(d.id), ...d });
    return true;
  }

  /** Whether `?wait=final` ran out of time with the deferral unfilled. */
  serverGaveUp(): boolean {
    return this.outcome.final === false;
  }

  /** Whether the app has given its final answer (a deferred reply filled, an update seen). */
  isFinal(): boolean {
    if (this.outcome.outcome !== 'success') return true;
    switch (this.callbackType) {
      case CALLBACK.DEFERRED_CHANNEL_MESSAGE: {
        // ?wait=final answered once the original was filled (or its time ran out).
        if (this.outcome.final === true) return true;
        const original = this.originalId === undefined ? undefined : this.messages.get(this.originalId);
        return original !== undefined && (original.flags & LOADING) === 0;
      }
      case CALLBACK.DEFERRED_UPDATE_MESSAGE:
        return this.outcome.final === true || this.sourceUpdated || this.followedUp;
      case CALLBACK.UPDATE_MESSAGE:
        return this.sourceUpdated;
      default:
        return true;
    }
  }

  result(finalTimeoutMs: number): InteractionResult {
    const { outcome } = this;
    const acknowledged = outcome.outcome === 'success';
    const type = this.callbackType;
    const deferred = type === CALLBACK.DEFERRED_CHANNEL_MESSAGE || type === CALLBACK.DEFERRED_UPDATE_MESSAGE;
    let response: DiscordMessage | null = null;
    if (this.originalId !== undefined) response = this.messages.get(this.originalId) ?? null;
    else if (this.source && (type === CALLBACK.UPDATE_MESSAGE || type === CALLBACK.DEFERRED_UPDATE_MESSAGE)) {
      // Its update as seen on the gateway; else as the callback set it.
      response =
        this.messages.get(this.source.id) ??
        (type === CALLBACK.UPDATE_MESSAGE ? { ...this.source, ...outcome.response?.data } : this.source);
    }
    const followups = [...this.messages.values()].filter(
      (m) => m.id !== this.originalId && m.id !== this.source?.id,
    );
    let error: string | null = null;
    // The server's reason first (the admin timeline's words), then what the code means.
    if (!acknowledged)
      error = outcome.reason
        ? `${outcome.reason}\n${describeFailureReason(outcome.reason_code)}`
        : describeFailureReason(outcome.reason_code);
    else if (type === CALLBACK.DEFERRED_CHANNEL_MESSAGE && !this.isFinal()) {
      error =
        `the app deferred its reply (callback type 5) but did not fill it in within ${finalTimeoutMs} ms: ` +
        'the user still sees “thinking…” (edit the original response, e.g. interaction.editReply)';
    }
    const data = outcome.response?.data ?? {};
    const modal: OpenedModal | null =
      type === CALLBACK.MODAL
        ? {
            id: this.interactionId,
            custom_id: data.custom_id,
            title: data.title,
            components: data.components ?? [],
            channel_id: outcome.interaction?.channel_id,
            application_id: outcome.interaction?.application_id,
          }
        : null;
    return {
      ok: acknowledged && error === null,
      acknowledged,
      deferred,
      ephemeral: response !== null && (response.flags & (1 << 6)) !== 0,
      response,
      followups,
      modal,
      choices: type === CALLBACK.AUTOCOMPLETE_RESULT ? (data.choices ?? []) : null,
      error,
      interaction: outcome.interaction ?? null,
    };
  }
}

let nonces = 0;

/** A snowflake-like nonce, unique per call, as the chat client makes one. */
function newNonce(): string {
  nonces = (nonces + 1) % 4096;
  return String(
    (BigInt(Date.now() - 1420070400000) << 22n) | (BigInt(process.pid & 0x3ff) << 12n) | BigInt(nonces),
  );
}
