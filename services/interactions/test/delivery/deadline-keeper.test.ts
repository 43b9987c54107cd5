import { deliveryFailure } from '../../src/domain/timeline';
import { createLogger } from '@acs/service-kit';
import { DeadlineKeeper } from '../../src/delivery/deadline-keeper';
import { OutcomeListener } from '../../src/delivery/outcome-listener';
import { OutcomeWaiter } from '../../src/delivery/outcome-waiter';
import { newInteraction, openInteractionStore, outboxEvents } from '../store/open-interaction-store';

let open: Awaited<ReturnType<typeof openInteractionStore>>;
const logger = createLogger('deadline-test', 'silent');
const DEADLINE_MS = 300;

beforeAll(async () => {
  open = await openInteractionStore({ deadlineMs: DEADLINE_MS, tokenTtlSeconds: 900 });
});
afterAll(() => open?.close());

const stateOf = async (id: string) =>
  (
    await open.pool.query<{ state: string; reason_code: number | null }>(
      'SELECT state, reason_code FROM interaction WHERE id = $1',
      [id],
    )
  ).rows[0];
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The interaction's state once it has failed, polling (a loaded machine runs timers late). */
async function failedState(id: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await stateOf(id);
    if (state?.state !== 'pending' || Date.now() > deadline) return state;
    await sleep(25);
  }
}

describe('DeadlineKeeper', () => {
  it("fails a watched interaction at its deadline by the database's clock, not before", async () => {
    const keeper = new DeadlineKeeper(open.store, {
      deadlineMs: DEADLINE_MS,
      sweepIntervalMs: 60_000,
      logger,
    });
    const interaction = newInteraction();
    await open.store.record(interaction);
    // A timer that fires far too early (a clock ahead of the database's) waits what is left.
    keeper.watch(interaction.id, { delayMs: 20 });
    await sleep(120);
    await expect(stateOf(interaction.id)).resolves.toEqual({ state: 'pending', reason_code: null });
    await expect(failedState(interaction.id)).resolves.toEqual({ state: 'failed', reason_code: 2 });
    expect(keeper.watched).toBe(0);
    await keeper.stop();
  });

  it("says when a gateway app's bot had no session to receive the interaction, and only then", async () => {
    const connected = new Map([
      ['111', false],
      ['222', true],
      ['333', undefined],
    ]);
    const asked: string[] = [];
    const keeper = new DeadlineKeeper(open.store, {
      deadlineMs: DEADLINE_MS,
      sweepIntervalMs: 60_000,
      logger,
      hasBotSession: async (applicationId) => {
        asked.push(applicationId);
        return connected.get(applicationId);
      },
    });
    const reasons = new Map<string, string>();
    for (const applicationId of ['111', '222', '333']) {
      const interaction = newInteraction();
      await open.store.record(interaction);
      keeper.watch(interaction.id, { gatewayApplicationId: applicationId });
      reasons.set(applicationId, interaction.id);
    }
    const endpoint = newInteraction();
    await open.store.record(endpoint);
    keeper.watch(endpoint.id);
    const reasonOf = async (id: string) => {
      await failedState(id);
      const failed = (await outboxEvents(open.pool)).find(
        (e) => e.subject.endsWith('interaction.failed') && e.data.interaction_id === id,
      );
      return failed?.data.reason;
    };
    await expect(reasonOf(reasons.get('111') as string)).resolves.toMatch(
      /^the app did not answer within 0\.3 s: no bot session was connected to receive INTERACTION_CREATE/,
    );
    await expect(reasonOf(reasons.get('222') as string)).resolves.toBe('the app did not answer within 0.3 s');
    await expect(reasonOf(reasons.get('333') as string)).resolves.toBe('the app did not answer within 0.3 s');
    await expect(reasonOf(endpoint.id)).resolves.toBe('the app did not answer within 0.3 s');
    expect(asked.sort()).toEqual(['111', '222', '333']);
    await keeper.stop();
  });

  it('sweeps the interactions whose timer was lost (recorded before a restart)', async () => {
    const lost = [newInteraction(), newInteraction()];
    for (const interaction of lost) await open.store.record(interaction);
    const keeper = new DeadlineKeeper(open.store, { deadlineMs: DEADLINE_MS, sweepIntervalMs: 50, logger });
    keeper.start();
    try {
      for (const interaction of lost)
        await expect(failedState(interaction.id)).resolves.toEqual({ state: 'failed', reason_code: 2 });
      const failed = (await outboxEvents(open.pool)).filter((e) => e.subject.endsWith('interaction.failed'));
      expect(failed.map((e) => e.data.interaction_id)).toEqual(expect.arrayContaining(lost.map((i) => i.id)));
    } finally {
      await keeper.stop();
    }
  });

  it('forgets an interaction that got its outcome', async () => {
    const keeper = new DeadlineKeeper(open.store, {
      deadlineMs: DEADLINE_MS,
      sweepIntervalMs: 60_000,
      logger,
    });
    keeper.watch('1', { delayMs: 10_000 });
    expect(keeper.watched).toBe(1);
    keeper.forget('1');
    expect(keeper.watched).toBe(0);
    await keeper.stop();
  });
});

describe('OutcomeWaiter', () => {
  it('answers as soon as the outcome is announced', async () => {
    const listener = new OutcomeListener(open.pool, logger);
    await listener.start();
    try {
      const interaction = newInteraction();
      await open.store.record(interaction);
      const waiter = new OutcomeWaiter(listener, open.store);
      const started = Date.now();
      const waiting = waiter.wait(interaction.id, Date.now() + 5000);
      await sleep(100);
      await open.store.failIfPending(
        interaction.id,
        deliveryFailure({ kind: 'endpoint', detail: 'the interactions endpoint answered 500' }),
        false,
      );
      await expect(waiting).resolves.toMatchObject({ state: 'failed', reasonCode: 1 });
      expect(Date.now() - started).toBeLessThan(400);
    } finally {
      await listener.stop();
    }
  });

  it('still sees the outcome when the announcement is lost, and gives up at its limit', async () => {
    // A listener that hears nothing: the waiter reads the state again on its own.
    const deaf = { next: (_id: string, ms: number) => sleep(ms) };
    const waiter = new OutcomeWaiter(deaf, open.store);
    const interaction = newInteraction();
    await open.store.record(interaction);
    setTimeout(
      () =>
        void open.store.failIfPending(
          interaction.id,
          deliveryFailure({ kind: 'endpoint', detail: 'the interactions endpoint answered 500' }),
          false,
        ),
      100,
    );
    await expect(waiter.wait(interaction.id, Date.now() + 3000)).resolves.toMatchObject({ state: 'failed' });
    const pending = newInteraction();
    await open.store.record(pending);
    const started = Date.now();
    await expect(waiter.wait(pending.id, Date.now() + 200)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
