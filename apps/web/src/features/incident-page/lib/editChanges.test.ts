import { describe, expect, it } from 'vitest';
import { makeCard } from '../test/incidentCardFixtures.ts';
import { editChanges, editValuesOf } from './editChanges.ts';

describe('editChanges', () => {
  const card = makeCard({ tags: ['c2', 'phishing'], priority: 'high' });

  it('gives null when the values are the card’s, whitespace and repeated tags aside', () => {
    const values = editValuesOf(card);
    expect(editChanges(card, values)).toBeNull();
    expect(
      editChanges(card, { ...values, summary: ` ${card.summary}  `, tags: ['c2 ', 'phishing', 'c2'] }),
    ).toBeNull();
  });

  it('gives only the changed fields, trimmed', () => {
    expect(
      editChanges(card, {
        ...editValuesOf(card),
        recommendations: '  Re-image the host. ',
        tags: ['c2', ' escalated ', ''],
        priority: 'critical',
      }),
    ).toEqual({ recommendations: 'Re-image the host.', tags: ['c2', 'escalated'], priority: 'critical' });
  });
});
