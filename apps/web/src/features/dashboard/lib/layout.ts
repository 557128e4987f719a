import {
  DASHBOARD_GRID,
  WIDGET_CHART_TYPES,
  WIDGET_KINDS,
  WIDGET_TITLE_MAX,
  type ChartType,
  type WidgetKind,
} from '@soc/contracts';

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

/** Dashboard state kept in browser storage (spec 000 §3 "Dashboard state"). */
export interface DashboardState {
  widgets: Widget[];
  layout: GridItem[];
  cols: number;
}

export const DASHBOARD_STORAGE_KEY = 'dashboard';
const STATE_VERSION = 1;

const H = DASHBOARD_GRID.widgetHeight;
/** The EPS chart is 550 px high: its widget needs more rows than the others. */
export const EPS_WIDGET_HEIGHT = 13;
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
    layout.push({ i: item.i, x: item.x!, y: item.y!, w: item.w!, h: item.h! });
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

/** Adds a widget of a kind below the others. */
export function addWidget(state: DashboardState, kind: WidgetKind): DashboardState {
  const used = new Set(state.widgets.map((w) => w.id));
  let id: string = kind;
  for (let n = 2; used.has(id); n++) id = `${kind}-${n}`;
  const bottom = state.layout.reduce((m, l) => Math.max(m, l.y + l.h), 0);
  return {
    ...state,
    widgets: [...state.widgets, { id, kind, chart: WIDGET_CHART_TYPES[kind][0]!, title: '' }],
    layout: [...state.layout, { i: id, x: 0, y: bottom, ...defaultSize(kind) }],
  };
}

export function removeWidget(state: DashboardState, id: string): DashboardState {
  return {
    ...state,
    widgets: state.widgets.filter((w) => w.id !== id),
    layout: state.layout.filter((l) => l.i !== id),
  };
}

export function updateWidget(
  state: DashboardState,
  id: string,
  change: Partial<Omit<Widget, 'id' | 'kind'>>,
) {
  return { ...state, widgets: state.widgets.map((w) => (w.id === id ? { ...w, ...change } : w)) };
}
