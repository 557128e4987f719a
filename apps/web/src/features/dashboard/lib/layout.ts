import {
  DASHBOARD_GRID,
  WIDGET_CHART_TYPES,
  WIDGET_KINDS,
  WIDGET_TITLE_MAX,
  type ChartType,
  type WidgetKind,
  EPS_CHART_HEIGHT,
} from '@soc/contracts';
import { verticalCompactor } from 'react-grid-layout/core';

/** A widget of the dashboard: what it shows, how, and under which title (empty: the default). */
export interface Widget {
  id: string;
  kind: WidgetKind;
  chart: ChartType;
  title: string;
}

/** The position of a widget on the 16-column grid (react-grid-layout's item). */
export interface GridItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Dashboard state kept in browser storage (product §A3 "Dashboard state"). */
export interface DashboardState {
  widgets: Widget[];
  layout: GridItem[];
  cols: number;
}

export const DASHBOARD_STORAGE_KEY = 'dashboard';
const STATE_VERSION = 1;

const H = DASHBOARD_GRID.widgetHeight;

/** Grid rows whose cell (rows and the margins between them) is at least `px` high. */
export const rowsFor = (px: number) =>
  Math.ceil((px + DASHBOARD_GRID.margin) / (DASHBOARD_GRID.rowHeight + DASHBOARD_GRID.margin));

/**
 * What the EPS widget holds besides its chart: the card's title bar (38) and padding (2 × 12),
 * the summary (two lines of 22 when it wraps) and the gap above the chart (8).
 */
const EPS_WIDGET_CHROME = 38 + 2 * 12 + 2 * 22 + 8;
/** The EPS chart is 550 px high: its widget needs more rows than the others, and never fewer. */
export const EPS_WIDGET_HEIGHT = rowsFor(EPS_CHART_HEIGHT + EPS_WIDGET_CHROME);
export const MITRE_WIDGET_HEIGHT = 20;

/** The default widgets and where they sit. */
export function defaultState(hideEps = false): DashboardState {
  const half = DASHBOARD_GRID.cols / 2;
  const items: [WidgetKind, ChartType, Omit<GridItem, 'i'>][] = [
    ['priority', 'pie', { x: 0, y: 0, w: half, h: H }],
    ['status', 'bar', { x: half, y: 0, w: half, h: H }],
    ['timeline', 'line', { x: 0, y: H, w: DASHBOARD_GRID.cols, h: H }],
    ['category', 'bar', { x: 0, y: 2 * H, w: half, h: H }],
    ['sla', 'gauge', { x: half, y: 2 * H, w: half, h: H }],
    ['top_domains', 'bar', { x: 0, y: 3 * H, w: half, h: H }],
    ['top_ips', 'bar', { x: half, y: 3 * H, w: half, h: H }],
    ['eps', 'eps', { x: 0, y: 4 * H, w: DASHBOARD_GRID.cols, h: EPS_WIDGET_HEIGHT }],
    [
      'mitre',
      'matrix',
      { x: 0, y: 4 * H + EPS_WIDGET_HEIGHT, w: DASHBOARD_GRID.cols, h: MITRE_WIDGET_HEIGHT },
    ],
  ];
  const shown = items.filter(([kind]) => !(hideEps && kind === 'eps'));
  return {
    widgets: shown.map(([kind, chart]) => ({ id: kind, kind, chart, title: '' })),
    layout: shown.map(([kind, , pos]) => ({ i: kind, ...pos })),
    cols: DASHBOARD_GRID.cols,
  };
}

/** The default size of a widget of a kind (when added again). */
export function defaultSize(kind: WidgetKind): { w: number; h: number } {
  if (kind === 'eps') return { w: DASHBOARD_GRID.cols, h: EPS_WIDGET_HEIGHT };
  if (kind === 'mitre') return { w: DASHBOARD_GRID.cols, h: MITRE_WIDGET_HEIGHT };
  if (kind === 'timeline') return { w: DASHBOARD_GRID.cols, h: H };
  return { w: DASHBOARD_GRID.cols / 2, h: H };
}

/** The fewest rows a widget may take: the EPS chart's fixed height must fit (stored older layouts too). */
function minHeight(id: string): number {
  return id === 'eps' || id.startsWith('eps-') ? EPS_WIDGET_HEIGHT : 1;
}

/** The layout as react-grid-layout takes it: with each widget's least height for resizing. */
export function gridLayout(layout: GridItem[]): (GridItem & { minH: number })[] {
  return layout.map((l) => ({ ...l, minH: minHeight(l.i) }));
}

/**
 * Pulls every widget up as far as the ones above it allow, so that moving or deleting one
 * leaves no gap (react-grid-layout's vertical compaction, the one the grid itself uses).
 */
export function compactLayout(layout: GridItem[]): GridItem[] {
  return verticalCompactor
    .compact(layout, DASHBOARD_GRID.cols)
    .map(({ i, x, y, w, h }) => ({ i, x, y, w, h }));
}

/** The first place, row by row from the top left, where a w × h widget overlaps none of the others. */
export function firstFreePlace(layout: GridItem[], w: number, h: number): { x: number; y: number } {
  const overlaps = (x: number, y: number) =>
    layout.some((l) => x < l.x + l.w && l.x < x + w && y < l.y + l.h && l.y < y + h);
  for (let y = 0; ; y++)
    for (let x = 0; x + w <= DASHBOARD_GRID.cols; x++) if (!overlaps(x, y)) return { x, y };
}

const isKind = (v: unknown): v is WidgetKind => (WIDGET_KINDS as readonly unknown[]).includes(v);
const int = (v: unknown, min: number, max: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/**
 * The stored state, checked item by item: anything that does not fit (another version, unknown
 * widgets, a chart type the widget cannot take, positions off the grid) falls back to the default.
 */
export function parseState(raw: unknown, hideEps = false): DashboardState | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as { version?: unknown; widgets?: unknown; layout?: unknown };
  if (r.version !== STATE_VERSION || !Array.isArray(r.widgets) || !Array.isArray(r.layout)) return null;
  const widgets: Widget[] = [];
  for (const w of r.widgets as Partial<Widget>[]) {
    if (!w || typeof w.id !== 'string' || !isKind(w.kind)) return null;
    if (!WIDGET_CHART_TYPES[w.kind].includes(w.chart as ChartType)) return null;
    if (typeof w.title !== 'string' || w.title.length > WIDGET_TITLE_MAX) return null;
    if (hideEps && w.kind === 'eps') continue;
    widgets.push({ id: w.id, kind: w.kind, chart: w.chart as ChartType, title: w.title });
  }
  const ids = new Set(widgets.map((w) => w.id));
  if (ids.size !== widgets.length) return null;
  const layout: GridItem[] = [];
  for (const item of r.layout as Partial<GridItem>[]) {
    if (!item || typeof item.i !== 'string') return null;
    if (!ids.has(item.i)) continue;
    if (!int(item.x, 0, DASHBOARD_GRID.cols - 1) || !int(item.w, 1, DASHBOARD_GRID.cols)) return null;
    if (!int(item.y, 0, 10_000) || !int(item.h, 1, 200)) return null;
    layout.push({ i: item.i, x: item.x!, y: item.y!, w: item.w!, h: Math.max(item.h!, minHeight(item.i)) });
  }
  if (layout.length !== widgets.length) return null;
  return { widgets, layout, cols: DASHBOARD_GRID.cols };
}

export function loadState(hideEps = false): DashboardState {
  try {
    const raw = window.localStorage.getItem(DASHBOARD_STORAGE_KEY);
    return (raw && parseState(JSON.parse(raw), hideEps)) || defaultState(hideEps);
  } catch {
    return defaultState(hideEps);
  }
}

export function saveState(state: DashboardState | null): void {
  try {
    if (state === null) window.localStorage.removeItem(DASHBOARD_STORAGE_KEY);
    else
      window.localStorage.setItem(
        DASHBOARD_STORAGE_KEY,
        JSON.stringify({ version: STATE_VERSION, widgets: state.widgets, layout: state.layout }),
      );
  } catch {
    // storage disabled or full: the layout lasts for this visit only
  }
}

/** Adds a widget of a kind in the first free place of its size (below the others when none is). */
export function addWidget(state: DashboardState, kind: WidgetKind): DashboardState {
  const used = new Set(state.widgets.map((w) => w.id));
  let id: string = kind;
  for (let n = 2; used.has(id); n++) id = `${kind}-${n}`;
  const size = defaultSize(kind);
  return {
    ...state,
    widgets: [...state.widgets, { id, kind, chart: WIDGET_CHART_TYPES[kind][0]!, title: '' }],
    layout: compactLayout([
      ...state.layout,
      { i: id, ...firstFreePlace(state.layout, size.w, size.h), ...size },
    ]),
  };
}

/** Deletes a widget; the ones below it move up into its place. */
export function removeWidget(state: DashboardState, id: string): DashboardState {
  return {
    ...state,
    widgets: state.widgets.filter((w) => w.id !== id),
    layout: compactLayout(state.layout.filter((l) => l.i !== id)),
  };
}

/** A moved or resized layout from the grid, compacted so that no gap stays behind. */
export function moveWidgets(state: DashboardState, layout: readonly GridItem[]): DashboardState {
  return { ...state, layout: compactLayout(layout.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }))) };
}

export function updateWidget(
  state: DashboardState,
  id: string,
  change: Partial<Omit<Widget, 'id' | 'kind'>>,
) {
  return { ...state, widgets: state.widgets.map((w) => (w.id === id ? { ...w, ...change } : w)) };
}
