import { describe, expect, it } from 'vitest';
import { slaDeadline } from './sla.ts';

const msk = (iso: string) => new Date(`${iso}+03:00`);

describe('slaDeadline', () => {
  it('adds calendar hours across nights and weekends', () => {
    expect(slaDeadline(msk('2026-11-20T17:00:00'), 24, true)).toEqual(msk('2026-11-21T17:00:00'));
  });

  it('counts only working hours for business SLA', () => {
    // Friday 17:00 + 2 business hours → Monday 10:00
    expect(slaDeadline(msk('2026-11-20T17:00:00'), 2, false)).toEqual(msk('2026-11-23T10:00:00'));
  });

  it('starts counting at opening time when registered at night', () => {
    expect(slaDeadline(msk('2026-11-18T03:00:00'), 1, false)).toEqual(msk('2026-11-18T10:00:00'));
  });

  it('spans several working days', () => {
    // 9 working hours a day: Wednesday 09:00 + 20 h → Friday 11:00
    expect(slaDeadline(msk('2026-11-18T09:00:00'), 20, false)).toEqual(msk('2026-11-20T11:00:00'));
  });
});
