import { DASHBOARD_GRID, mitreHeatLevel } from '@soc/contracts';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { incidentsLink } from './drilldown.ts';
import { epsAxis, epsColumnStyle, epsGridStep } from './epsStyle.ts';
import {
  DASHBOARD_STORAGE_KEY,
  EPS_WIDGET_HEIGHT,
  addWidget,
  defaultState,
  gridLayout,
  loadState,
  moveWidgets,
  parseState,
  removeWidget,
  saveState,
  updateWidget,
  type GridItem,
} from './layout.ts';
import { PIE_LABEL_MIN_SHARE, pieOption } from './pieOption.ts';
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

  it('adds a widget below the others under a fresh id when no place is free', () => {
    const state = addWidget(defaultState(), 'priority');
    const added = state.widgets.at(-1)!;
    expect(added).toEqual({ id: 'priority-2', kind: 'priority', chart: 'bar', title: '' });
    const bottom = Math.max(...defaultState().layout.map((l) => l.y + l.h));
    expect(state.layout.at(-1)).toMatchObject({ i: 'priority-2', x: 0, y: bottom });
  });

  const place = (layout: GridItem[], id: string) => layout.find((l) => l.i === id);
  const overlapping = (layout: GridItem[]) =>
    layout.some((a, n) =>
      layout
        .slice(n + 1)
        .some((b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h),
    );

  it('puts a re-added widget into the first free place, where the deleted one was', () => {
    const before = place(defaultState().layout, 'status');
    const state = addWidget(removeWidget(defaultState(), 'status'), 'status');
    expect(place(state.layout, 'status')).toEqual(before);
    expect(overlapping(state.layout)).toBe(false);
    // the first place wide enough: a full-width widget cannot use the half-width hole at the top
    const gaps = removeWidget(removeWidget(defaultState(), 'eps'), 'status');
    const eps = addWidget(gaps, 'eps');
    const bottom = Math.max(...gaps.layout.map((l) => l.y + l.h));
    expect(place(eps.layout, 'eps')).toMatchObject({ x: 0, y: bottom });
    expect(place(addWidget(eps, 'status').layout, 'status')).toEqual(before);
  });

  it('closes the gap a deleted or moved widget leaves', () => {
    const half = DASHBOARD_GRID.cols / 2;
    const H = DASHBOARD_GRID.widgetHeight;
    // the timeline (full width, below priority and status) moves up when both are deleted
    const removed = removeWidget(removeWidget(defaultState(), 'priority'), 'status');
    expect(place(removed.layout, 'timeline')?.y).toBe(0);
    expect(Math.min(...removed.layout.map((l) => l.y))).toBe(0);
    // status dragged far down the right column: SLA and top IPs move up into its place
    const layout = defaultState().layout.map((l) => (l.i === 'status' ? { ...l, y: 200 } : l));
    const moved = moveWidgets(defaultState(), layout).layout;
    expect(place(moved, 'status')).toMatchObject({ x: half });
    const bottom = Math.max(...moved.filter((l) => l.i !== 'status').map((l) => l.y + l.h));
    expect(place(moved, 'status')?.y).toBe(bottom);
    expect(place(moved, 'priority')).toMatchObject({ x: 0, y: 0, h: H });
    expect(overlapping(moved)).toBe(false);
  });

  it('keeps the EPS widget tall enough for its 550 px chart, stored layouts too', () => {
    const { rowHeight, margin } = DASHBOARD_GRID;
    const cell = (rows: number) => rows * rowHeight + (rows - 1) * margin;
    // the chart, the title bar, padding and a two-line summary
    expect(cell(EPS_WIDGET_HEIGHT)).toBeGreaterThanOrEqual(550 + 38 + 24 + 44 + 8);
    expect(gridLayout(defaultState().layout).find((l) => l.i === 'eps')?.minH).toBe(EPS_WIDGET_HEIGHT);
    const stored = {
      version: 1,
      ...defaultState(),
      layout: defaultState().layout.map((l) => (l.i === 'eps' ? { ...l, h: 13 } : l)),
    };
    expect(place(parseState(stored)!.layout, 'eps')?.h).toBe(EPS_WIDGET_HEIGHT);
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

describe('EPS chart and MITRE matrix constants (product §A9)', () => {
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

  it('lets the value axis follow the data and keeps the contract line on it while it is near', () => {
    // a contract far above the hours: the axis is the data's, the contract is named above it
    expect(epsAxis(800, 7000)).toEqual({ contractOnAxis: false });
    expect(epsAxis(1870, 6500)).toEqual({ contractOnAxis: false });
    // a contract near the data: on the axis, a step above the higher of the two
    expect(epsAxis(800, 1000)).toEqual({ max: 1500, interval: 500, contractOnAxis: true });
    expect(epsAxis(3200, 2500)).toEqual({ max: 4000, interval: 1000, contractOnAxis: true });
    expect(epsAxis(4000, 6000)).toEqual({ max: 7500, interval: 1500, contractOnAxis: true });
    // no contract: nothing to show
    expect(epsAxis(800, 0)).toEqual({ contractOnAxis: false });
  });

  it('grades the heat of a technique against the busiest one', () => {
    expect(mitreHeatLevel(0, 10)).toBe('none');
    expect(mitreHeatLevel(10, 10)).toBe('higher');
    expect(mitreHeatLevel(8, 10)).toBe('higher');
    expect(mitreHeatLevel(7, 10)).toBe('high');
    expect(mitreHeatLevel(5, 10)).toBe('medium');
    expect(mitreHeatLevel(3, 10)).toBe('medium');
    expect(mitreHeatLevel(25, 100)).toBe('low');
    expect(mitreHeatLevel(1, 10)).toBe('low');
    // a busy period's 7 … 14 of 14 spread over the levels instead of all being 'higher'
    expect(new Set([7, 9, 11, 14].map((n) => mitreHeatLevel(n, 14)))).toEqual(
      new Set(['medium', 'high', 'higher']),
    );
  });
});

describe('pie chart', () => {
  const colors = { text: '#111', secondaryText: '#666', background: '#fff' };
  const slices = [
    { name: 'Malware', value: 60 },
    { name: 'Phishing', value: 30 },
    { name: 'Data leak', value: 7 },
    { name: 'Fraud', value: 2 },
    { name: 'Spam', value: 1 },
  ];

  it('keeps labels apart: guide lines, overlaps hidden, small slices in the legend only', () => {
    const series = pieOption(slices, colors).series[0]!;
    expect(series.labelLayout).toEqual({ hideOverlap: true });
    expect(series.avoidLabelOverlap).toBe(true);
    expect(series.labelLine.length).toBeGreaterThan(0);
    const labelled = series.data.filter((d) => !('label' in d)).map((d) => d.name);
    expect(labelled).toEqual(['Malware', 'Phishing', 'Data leak']);
    for (const d of series.data.filter((d) => 'label' in d))
      expect(d.value / 100).toBeLessThan(PIE_LABEL_MIN_SHARE);
  });

  it('gives every slice with its value in the legend, slices of one name together', () => {
    const { legend } = pieOption(slices, colors);
    const shared = pieOption([...slices, { name: 'Malware', value: 5 }], colors).legend;
    expect(shared.formatter('Malware')).toBe('Malware: 65');
    expect(slices.map((s) => legend.formatter(s.name))).toEqual([
      'Malware: 60',
      'Phishing: 30',
      'Data leak: 7',
      'Fraud: 2',
      'Spam: 1',
    ]);
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
