import { planInvocation, type PlanInput } from '../../../src/domain/invocation';
import { commandOf, partiesOf, placeOf, readBody, treeOf, USER } from './fixtures';

const input = (overrides: Partial<PlanInput> = {}): PlanInput => ({
  body: readBody(),
  userId: USER,
  command: commandOf(),
  parties: partiesOf(),
  place: placeOf(),
  targetMessage: null,
  ...overrides,
});

describe('planInvocation', () => {
  it('delivers over HTTP when the app has an endpoint, else over the gateway (exclusive)', () => {
    expect(planInvocation(input()).delivery).toBe('gateway');
    expect(
      planInvocation(input({ parties: partiesOf({ interactionsEndpointUrl: 'https://app.example/i' }) }))
        .delivery,
    ).toBe('http');
  });

  it('lets Discord launch an entry point with handler 2; handler 1 goes to the app', () => {
    const launch = { body: readBody({}, { type: 4, name: 'launch' }) };
    expect(
      planInvocation(input({ ...launch, command: commandOf({ type: 4, name: 'launch', handler: 2 }) }))
        .delivery,
    ).toBe('activity');
    expect(
      planInvocation(input({ ...launch, command: commandOf({ type: 4, name: 'launch', handler: 1 }) }))
        .delivery,
    ).toBe('gateway');
  });

  it('judges access before the options', () => {
    const command = commandOf({ options: [{ type: 3, name: 'text', description: 'd', required: true }] });
    const tree = treeOf(() => planInvocation(input({ command, place: placeOf({ allowed: false }) })));
    expect(Object.keys(tree.data ?? {})).toEqual(['_errors']);
  });
});
