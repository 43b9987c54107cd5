import { planBulkMembers, planMembersReplacement } from '../../src/domain/plan-member-changes';
import { ALICE, BOB, CAROL, DAVE, input, lobby, member } from './fixtures';

describe('planMembersReplacement', () => {
  it('removes the members the list leaves out and upserts the list', () => {
    const before = lobby([member(ALICE), member(BOB), member(CAROL)]);
    const list = [input(BOB), input(DAVE)];
    const plan = planMembersReplacement(before, list);
    expect(plan.removed.map((m) => m.userId)).toEqual([ALICE, CAROL]);
    expect(plan.upserts).toEqual(list);
  });

  it('removes everyone for an empty list', () => {
    const plan = planMembersReplacement(lobby([member(ALICE)]), []);
    expect(plan).toEqual({ removed: [member(ALICE)], upserts: [] });
  });
});

describe('planBulkMembers', () => {
  it('removes the present members marked remove_member and upserts the others', () => {
    const before = lobby([member(ALICE), member(BOB, { flags: 1 })]);
    const plan = planBulkMembers(before, [
      input(BOB, { remove: true }),
      input(CAROL),
      input(DAVE, { remove: true }),
    ]);
    // DAVE is no member: nothing to remove, and no event for him.
    expect(plan.removed).toEqual([member(BOB, { flags: 1 })]);
    expect(plan.upserts.map((m) => m.id)).toEqual([CAROL]);
  });
});
