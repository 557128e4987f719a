import { GOSSOPKA_PROCESSING_MS } from '@soc/contracts';
import { describe, expect, it } from 'vitest';
import { makeCard } from '../test/incidentCardFixtures.ts';
import { gossopkaView } from './GossopkaControl.tsx';

const NOW = Date.UTC(2026, 0, 15, 12, 0);

describe('gossopkaView', () => {
  it('counts down before the planned time, then processes for at most 5 minutes, then errs', () => {
    const planned = makeCard({ gossopka_state: 'planned', gossopka_planned_time: NOW + 1000 });
    expect(gossopkaView(planned, NOW)).toBe('countdown');
    expect(gossopkaView(planned, NOW + 1000)).toBe('processing');
    expect(gossopkaView(planned, NOW + 1000 + GOSSOPKA_PROCESSING_MS)).toBe('processing');
    expect(gossopkaView(planned, NOW + 1001 + GOSSOPKA_PROCESSING_MS)).toBe('error');
  });

  it('turns a processing send into an error once its window has passed', () => {
    const processing = makeCard({ gossopka_state: 'processing', gossopka_processing_since: NOW });
    expect(gossopkaView(processing, NOW + 60_000)).toBe('processing');
    expect(gossopkaView(processing, NOW + GOSSOPKA_PROCESSING_MS + 1)).toBe('error');
  });

  it('follows the server for sent, failed and not planned incidents', () => {
    expect(gossopkaView(makeCard({ gossopka_state: 'sent', gossopka_id: 'GS-1' }), NOW)).toBe('sent');
    expect(gossopkaView(makeCard({ gossopka_state: 'error' }), NOW)).toBe('error');
    expect(gossopkaView(makeCard(), NOW)).toBe('none');
  });
});
