import { describe, expect, it } from 'vitest';
import { refusalReason, summarizeBulk } from './bulkResult.ts';

describe('summarizeBulk', () => {
  it('counts the changed incidents and gives each refused one the server’s reason', () => {
    expect(
      summarizeBulk({
        results: [
          { key: 1, status: 200, incident_status: 'completed', errors: null },
          { key: 2, status: 400, incident_status: null, errors: { comment: ['Too long.', 'Not Markdown.'] } },
          { key: 3, status: 404, incident_status: null, errors: { detail: 'Not found.' } },
          { key: 4, status: 400, incident_status: null, errors: null },
        ],
      }),
    ).toEqual({
      total: 4,
      changed: 1,
      refused: [
        { key: 2, reason: 'Too long.; Not Markdown.' },
        { key: 3, reason: 'Not found.' },
        { key: 4, reason: '' },
      ],
    });
  });

  it('leaves out empty messages', () => {
    expect(refusalReason({ status: ['', 'Not allowed.'], detail: ' ' })).toBe('Not allowed.');
  });
});
