import { dmRecipientCandidates } from '../../src/domain/dm-channel';

describe('dmRecipientCandidates', () => {
  it('reads the ids permissions may accept: `recipients` when present, else `recipient_id`', () => {
    expect(dmRecipientCandidates({ recipient_id: '42' })).toEqual(['42']);
    expect(dmRecipientCandidates({ recipient_id: 42 })).toEqual(['42']);
    expect(dmRecipientCandidates({ recipients: ['1', 2, '1'], recipient_id: '3' })).toEqual(['1', '2']);
    expect(dmRecipientCandidates({ recipients: null, recipient_id: '3' })).toEqual(['3']);
  });

  it('skips what is no snowflake, and bodies permissions refuses whole', () => {
    expect(dmRecipientCandidates({ recipients: ['1', 'x', 1.5, -1, '9223372036854775808'] })).toEqual(['1']);
    expect(
      dmRecipientCandidates({ recipients: Array.from({ length: 10 }, (_, i) => String(i + 1)) }),
    ).toEqual([]);
    expect(dmRecipientCandidates({ recipients: '1' })).toEqual([]);
    expect(dmRecipientCandidates(['1'])).toEqual([]);
    expect(dmRecipientCandidates(undefined)).toEqual([]);
    expect(dmRecipientCandidates({})).toEqual([]);
  });
});
