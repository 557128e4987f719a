import { DASHBOARD_GRID, mitreHeatLevel } from '@soc/contracts';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { incidentsLink } from './drilldown.ts';
import { epsColumnStyle, epsGridStep } from './epsStyle.ts';
import {
  DASHBOARD_STORAGE_KEY,
  addWidget,
  defaultState,
  loadState,
  parseState,
  removeWidget,
  saveState,
  updateWidget,
} from './layout.ts';
import { dayRange, defaultRange, percentChange, previousRange, rollRange } from './range.ts';

describe('dashboard layout', () => {
  beforeEach(() => window.localStorage.clear());

  it('has every widget on the 16-column grid by default, 10 rows high, and can leave out EPS', () => {
    const state = defaultState();
    expect(state.widgets.map((w) => w.kind)).toEqual([
      'priority',
      'status',
      'timeline',
      'category',
      'sla',
      'top_domains',
      'top_ips',
      'eps',
      'mitre',
    ]);
    for (const item of state.layout) expect(item.x + item.w).toBeLessThanOrEqual(DASHBOARD_GRID.cols);
    expect(state.layout.find((l) => l.i === 'priority')?.h).toBe(DASHBOARD_GRID.widgetHeight);
    expect(defaultState(true).widgets.some((w) => w.kind === 'eps')).toBe(false);
  });

  it('keeps widgets, titles, chart types and positions in storage', () => {
    let state = defaultState();
    state = updateWidget(state, 'priority', { chart: 'bar', title: 'Мой график' });
    state = removeWidget(state, 'top_ips');
    state = {
      ...state,
      layout: state.layout.map((l) => (l.i === 'status' ? { ...l, x: 0, y: 40, w: 5 } : l)),
    };
    saveState(state);
    const loaded = loadState();
    expect(loaded).toEqual(state);
    expect(loaded.widgets.find((w) => w.id === 'priority')).toMatchObject({
      chart: 'bar',
      title: 'Мой график',
    });
    expect(loaded.widgets.some((w) => w.id === 'top_ips')).toBe(false);
    saveState(null);
    expect(window.localStorage.getItem(DASHBOARD_STORAGE_KEY)).toBeNull();
    expect(loadState()).toEqual(defaultState());
  });

  it('refuses stored states that do not fit and falls back to the default', () => {
    const good = { version: 1, ...defaultState() };
    expect(parseState(good)).not.toBeNull();
    expect(parseState({ ...good, version: 2 })).toBeNull();
    expect(
      parseState({ ...good, widgets: [{ id: 'x', kind: 'weather', chart: 'bar', title: '' }] }),
    ).toBeNull();
    // a line chart is not one of the priority widget's types
    expect(
      parseState({
        ...good,
        widgets: good.widgets.map((w) => (w.kind === 'priority' ? { ...w, chart: 'line' } : w)),
      }),
    ).toBeNull();
    expect(parseState({ ...good, layout: good.layout.map((l) => ({ ...l, x: 99 })) })).toBeNull();
    window.localStorage.setItem(DASHBOARD_STORAGE_KEY, '{not json');
    expect(loadState()).toEqual(defaultState());
  });

  it('adds a widget below the others under a fresh id', () => {
    const state = addWidget(defaultState(), 'priority');
    const added = state.widgets.at(-1)!;
    expect(added).toEqual({ id: 'priority-2', kind: 'priority', chart: 'bar', title: '' });
    const bottom = Math.max(...defaultState().layout.map((l) => l.y + l.h));
    expect(state.layout.at(-1)).toMatchObject({ i: 'priority-2', x: 0, y: bottom });
  });
});

describe('dashboard period', () => {
  const now = dayjs('2026-11-20T15:30:00');

  it('defaults to today minus 6 days to today, whole days', () => {
    const r = defaultRange(now);
    expect(dayjs(r.from).format('YYYY-MM-DD HH:mm:ss.SSS')).toBe('2026-11-14 00:00:00.000');
    expect(dayjs(r.to).format('YYYY-MM-DD HH:mm:ss.SSS')).toBe('2026-11-20 23:59:59.999');
  });

  it('moves a period ending today to the new today at a new day, keeping its length', () => {
    const today = now.startOf('day');
    const tomorrow = today.add(1, 'day');
    const r = dayRange(today.subtract(29, 'day'), today);
    const rolled = rollRange(r, today, tomorrow);
    expect(rolled).toEqual(dayRange(tomorrow.subtract(29, 'day'), tomorrow));
    // a period in the past stays
    const past = dayRange(today.subtract(40, 'day'), today.subtract(10, 'day'));
    expect(rollRange(past, today, tomorrow)).toBe(past);
    expect(rollRange(r, today, today)).toBe(r);
  });

  it('gives the previous period and the change against it', () => {
    expect(previousRange({ from: 1000, to: 1999 })).toEqual({ from: 0, to: 999 });
    expect(percentChange(120, 100)).toBe(20);
    expect(percentChange(50, 200)).toBe(-75);
    expect(percentChange(5, 0)).toBeNull();
  });
});

describe('EPS chart and MITRE matrix constants (spec 000 §9)', () => {
  it('sizes the columns by the number of points', () => {
    expect(epsColumnStyle(7)).toEqual({ barMaxWidth: 20, borderRadius: 4 });
    expect(epsColumnStyle(30)).toEqual({ barMaxWidth: 20, borderRadius: 4 });
    expect(epsColumnStyle(31)).toEqual({ barMaxWidth: 14, borderRadius: 3 });
    expect(epsColumnStyle(60)).toEqual({ barMaxWidth: 14, borderRadius: 3 });
    expect(epsColumnStyle(61)).toEqual({ barMaxWidth: 8, borderRadius: 2 });
  });

  it('steps the value axis by the contracted EPS', () => {
    expect(epsGridStep(1000)).toBe(500);
    expect(epsGridStep(2500)).toBe(1000);
    expect(epsGridStep(10_000)).toBe(1500);
  });

  it('grades the heat of a technique against the busiest one', () => {
    expect(mitreHeatLevel(0, 10)).toBe('none');
    expect(mitreHeatLevel(10, 10)).toBe('higher');
    expect(mitreHeatLevel(1, 10)).toBe('low');
    expect(mitreHeatLevel(3, 10)).toBe('medium');
    expect(mitreHeatLevel(33, 100)).toBe('high');
  });
});

describe('drill-down', () => {
  it('opens the incident list with the dashboard filters, its period and the clicked value', () => {
    const link = incidentsLink(
      new URLSearchParams('system__in=3,4'),
      { from: 10, to: 20 },
      'priority',
      'high',
    );
    const url = new URL(link, 'http://x');
    expect(url.pathname).toBe('/incidents');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      system__in: '3,4',
      created__gte: '10',
      created__lte: '20',
      priority__in: 'high',
    });
    expect(incidentsLink(new URLSearchParams(), { from: 1, to: 2 }, 'sla', 'false')).toContain(
      'sla_breached=false',
    );
    expect(incidentsLink(new URLSearchParams(), { from: 1, to: 2 }, 'mitre', 'T1110')).toContain(
      'technique__in=T1110',
    );
    // the top domains and IP addresses open the incidents that observed the indicator
    expect(incidentsLink(new URLSearchParams(), { from: 1, to: 2 }, 'ioc', 'evil.example')).toContain(
      'ioc__in=evil.example',
    );
  });
});
