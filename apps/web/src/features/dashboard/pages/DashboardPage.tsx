import { PlusOutlined, ReloadOutlined, UndoOutlined } from '@ant-design/icons';
import {
  DASHBOARD_BAR_MAX,
  DASHBOARD_GRID,
  DASHBOARD_REFRESH_MS,
  DASHBOARD_TOP_N,
  NOTIFICATION_DURATION_MS,
  WIDGET_KINDS,
  type Analytics,
  type TimelineEntry,
  type WidgetKind,
} from '@soc/contracts';
import { Alert, Button, Dropdown, Flex, Result, Select, Skeleton, Tooltip, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import ReactGridLayout, { useContainerWidth, verticalCompactor, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { usePortalConfig } from '@/shared/config/PortalConfigContext.tsx';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { currentLanguage } from '@/shared/hooks/useLanguage.ts';
import type { PagePrefetch } from '@/shared/lib/chunkLoad.ts';
import { notifyWarning, useNotificationApi } from '@/shared/ui/notifications.tsx';
import { useFilterChoicesQuery } from '../../incidents/index.ts';
import { DATE_PRESET_KEYS, datePresetRanges } from '@/shared/lib/datePresets.ts';
import {
  analyticsQuery,
  dashboardQuery,
  useAnalyticsQuery,
  useEpsQuery,
  useMitreMatrixQuery,
  useNewestIncidentQuery,
} from '../api/dashboardQueries.ts';
import { useMitreLayerDownload } from '../api/useMitreLayerDownload.ts';
import { isOwnIncident } from '../../live/index.ts';
import { EpsWidget } from '../components/EpsWidget.tsx';
import { Factoids } from '../components/Factoids.tsx';
import { ItemsChart, type ChartEntry } from '../components/ItemsChart.tsx';
import { MitreMatrix } from '../components/MitreMatrix.tsx';
import { SlaGauge } from '../components/SlaGauge.tsx';
import { TimelineChart } from '../components/TimelineChart.tsx';
import { WidgetFrame } from '../components/WidgetFrame.tsx';
import { incidentsLink, type DrillKind } from '../lib/drilldown.ts';
import {
  addWidget,
  defaultState,
  gridLayout,
  loadState,
  moveWidgets,
  removeWidget,
  saveState,
  updateWidget,
  type DashboardState,
  type Widget,
} from '../lib/layout.ts';
import { dayRange, defaultRange, rollRange, type DateRange } from '../lib/range.ts';
import { incidentPriorityChartColors } from '@/shared/theme/domainColors.ts';
import { DateRangeInput } from '@/shared/ui/DateInputs.tsx';

/** The toast that offers to take back a deletion or a restored default layout. */
const UNDO_KEY = 'dashboard-undo';

/** The period in the address (`created__gte`/`created__lte`), or the default last 7 days. */
function readRange(params: URLSearchParams): DateRange | null {
  const from = Number(params.get('created__gte'));
  const to = Number(params.get('created__lte'));
  return params.get('created__gte') && params.get('created__lte') && from <= to ? { from, to } : null;
}

/** The address's filters other than the period. */
function filtersBesideRange(params: URLSearchParams): URLSearchParams {
  const filters = new URLSearchParams(params);
  filters.delete('created__gte');
  filters.delete('created__lte');
  return filters;
}

/** The key figures of the period the page opens with (see PagePrefetch). */
export const prefetchPage: PagePrefetch = (client, url) => {
  const range = readRange(url.searchParams) ?? defaultRange(dayjs().startOf('day'));
  void client.prefetchQuery(analyticsQuery(filtersBesideRange(url.searchParams), range, currentLanguage()));
};

/** Height in pixels of a widget `rows` grid rows high (the rows and the margins between them). */
const rowsHeight = (rows: number) => rows * DASHBOARD_GRID.rowHeight + (rows - 1) * DASHBOARD_GRID.margin;

/** The widgets top to bottom, left to right, as they sit on the grid: the phone's one column. */
function stackedWidgets(state: DashboardState): { widget: Widget; height: number }[] {
  const place = new Map(state.layout.map((item) => [item.i, item]));
  return state.widgets
    .map((widget) => ({ widget, item: place.get(widget.id) }))
    .sort((a, b) => (a.item?.y ?? 0) - (b.item?.y ?? 0) || (a.item?.x ?? 0) - (b.item?.x ?? 0))
    .map(({ widget, item }) => ({ widget, height: rowsHeight(item?.h ?? DASHBOARD_GRID.widgetHeight) }));
}

/** "Today", checked with every refresh: the page notices a new day (product §A4). */
function useToday() {
  const [today, setToday] = useState(() => dayjs().startOf('day'));
  useEffect(() => {
    const timer = window.setInterval(() => {
      const now = dayjs().startOf('day');
      setToday((current) => (current.isSame(now, 'day') ? current : now));
    }, DASHBOARD_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);
  return today;
}

/**
 * /dashboard (product §A2, §A4): a period and tenants, key figures with the previous period, and a
 * grid of widgets (16 columns, drag and resize) kept in browser storage. Chart values open the
 * incident list with the same filter; data refreshes every 30 s. On a phone (below 1024 px) the
 * widgets are stacked full width in the grid's order, not draggable; the stored layout stays.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const isPhone = useIsPhone();
  // the hues of IncidentPriorityTag, in the current theme's shades
  const priorityColors = useMemo(() => incidentPriorityChartColors(token), [token]);
  useDocumentTitle(t('pages.dashboard'));
  const navigate = useNavigate();
  const config = usePortalConfig();
  const hideEps = Boolean(config?.flags.hide_eps_widget);
  const [searchParams, setSearchParams] = useSearchParams();
  const today = useToday();

  // the period: the address's, or the last 7 days (which move with the day by themselves)
  const explicit = readRange(searchParams);
  const range = explicit ?? defaultRange(today);
  const previousToday = useRef(today);
  useEffect(() => {
    const before = previousToday.current;
    previousToday.current = today;
    if (!explicit) return;
    const rolled = rollRange(explicit, before, today);
    if (rolled !== explicit) setRange(rolled);
    // only a change of day moves the period
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [today]);

  /** Filters other than the period (tenants, or any incident-list parameter in the address). */
  const filters = useMemo(() => filtersBesideRange(searchParams), [searchParams]);

  const setRange = useCallback(
    (next: DateRange | null) =>
      setSearchParams(
        (current) => {
          const p = new URLSearchParams(current);
          if (next) {
            p.set('created__gte', String(next.from));
            p.set('created__lte', String(next.to));
          } else {
            p.delete('created__gte');
            p.delete('created__lte');
          }
          return p;
        },
        { replace: true },
      ),
    [setSearchParams],
  );
  const setSystems = (ids: number[]) =>
    setSearchParams((current) => {
      const p = new URLSearchParams(current);
      if (ids.length) p.set('system__in', ids.join(','));
      else p.delete('system__in');
      return p;
    });

  const analytics = useAnalyticsQuery(filters, range);
  const eps = useEpsQuery(filters, range, !hideEps);
  const mitre = useMitreMatrixQuery();
  const mitreLayer = useMitreLayerDownload();
  const choices = useFilterChoicesQuery();
  const newest = useNewestIncidentQuery(filters.get('system__in'));

  // a newer incident than the last one seen: a warning toast with its key (product §A4)
  const lastKey = useRef<number | null>(null);
  useEffect(() => {
    const incident = newest.data;
    if (!incident) return;
    if (lastKey.current !== null && incident.key > lastKey.current && !isOwnIncident(incident.key)) {
      notifyWarning({
        title: t('dashboard.newIncident', { key: incident.key }),
        description: t('dashboard.newIncidentText', { summary: incident.summary }),
        key: `new-incident-${incident.key}`,
      });
    }
    lastKey.current = Math.max(lastKey.current ?? 0, incident.key);
  }, [newest.data, t]);

  // widgets and layout, kept in browser storage
  const [state, setState] = useState<DashboardState>(() => loadState(hideEps));
  const update = useCallback((next: (s: DashboardState) => DashboardState) => {
    setState((current) => {
      const value = next(current);
      saveState(value);
      return value;
    });
  }, []);
  const notification = useNotificationApi();
  /** Changes the widgets or layout and offers, in a toast, to put the previous ones back. */
  const changeUndoably = (change: () => void, done: string) => {
    const before = state;
    change();
    notification.info({
      key: UNDO_KEY,
      title: done,
      duration: NOTIFICATION_DURATION_MS / 1000,
      props: { 'data-testid': 'dashboard-undo-toast' },
      actions: (
        <Button
          type="primary"
          size="small"
          data-testid="dashboard-undo"
          onClick={() => {
            update(() => before);
            notification.destroy(UNDO_KEY);
          }}
        >
          {t('dashboard.undo.action')}
        </Button>
      ),
    });
  };
  const restore = () =>
    changeUndoably(() => {
      // no stored layout: the default, as it is in this version
      saveState(null);
      setState(defaultState(hideEps));
    }, t('dashboard.undo.restored'));
  const remove = (w: Widget) =>
    changeUndoably(
      () => update((s) => removeWidget(s, w.id)),
      t('dashboard.undo.removed', { title: titleOf(w) }),
    );
  const onLayoutChange = (layout: Layout) => update((s) => moveWidgets(s, layout));
  const layout = useMemo(() => gridLayout(state.layout), [state.layout]);

  const { width, containerRef, mounted } = useContainerWidth();

  const open = (kind: DrillKind, value: string) => navigate(incidentsLink(filters, range, kind, value));
  const link = (kind: DrillKind, value: string) => incidentsLink(filters, range, kind, value);

  const pickBucket = (entry: TimelineEntry) => {
    const start = dayjs(entry.item);
    setRange(
      entry.timespan === 'hour'
        ? { from: entry.item, to: entry.item + 3_600_000 - 1 }
        : dayRange(start, start),
    );
  };

  const ranges = datePresetRanges(dayjs());
  const presets = DATE_PRESET_KEYS.map((key) => ({
    label: t(`dateRange.presets.${key}`),
    value: ranges[key],
  }));
  const systems = choices.data?.systems ?? [];
  const selectedSystems = (filters.get('system__in') ?? '').split(',').filter(Boolean).map(Number);
  const missing = WIDGET_KINDS.filter(
    (kind) => !(hideEps && kind === 'eps') && !state.widgets.some((w) => w.kind === kind),
  );

  const titleOf = (w: Widget) => w.title || t(`dashboard.widgets.${w.kind}`);

  const entries = (data: Analytics, kind: WidgetKind): ChartEntry[] => {
    switch (kind) {
      case 'priority':
        return data.priority.map((i) => ({
          item: i.item,
          value: i.value,
          label: t(`incidentPriority.${i.item}` as 'incidentPriority.low'),
          href: link('priority', i.item),
        }));
      case 'status':
        return data.status.map((i) => ({
          item: i.item,
          value: i.value,
          label: t(`incidentStatus.${i.item}` as 'incidentStatus.closed'),
          href: link('status', i.item),
        }));
      case 'category':
        return [...data.category]
          .sort((a, b) => b.value - a.value)
          .map((i) => ({
            item: i.item,
            value: i.value,
            label: i.title ?? i.item,
            href: link('category', i.item),
          }));
      case 'top_domains':
        return data.top_domains.map((i) => ({ item: i.item, value: i.value, label: i.item }));
      case 'top_ips':
        return data.top_ips.map((i) => ({ item: i.item, value: i.value, label: i.item }));
      default:
        return [];
    }
  };
  const drillOf: Partial<Record<WidgetKind, DrillKind>> = {
    priority: 'priority',
    status: 'status',
    category: 'category',
    top_domains: 'ioc',
    top_ips: 'ioc',
  };

  const content = (w: Widget) => {
    if (w.kind === 'eps')
      return (
        <EpsWidget
          title={titleOf(w)}
          data={eps.data}
          isPending={eps.isPending}
          isError={eps.isError}
          onRetry={() => void eps.refetch()}
        />
      );
    const data = analytics.data;
    if (!data) {
      if (analytics.isError)
        return (
          <Alert
            type="error"
            showIcon
            title={t('dashboard.widget.loadFailed')}
            action={
              <Button size="small" onClick={() => void analytics.refetch()}>
                {t('dashboard.widget.retry')}
              </Button>
            }
          />
        );
      return <Skeleton active />;
    }
    switch (w.kind) {
      case 'timeline':
        return (
          <TimelineChart
            title={titleOf(w)}
            timeline={data.timeline}
            emptyText={t('dashboard.widget.empty')}
            onPick={pickBucket}
          />
        );
      case 'sla':
        return (
          <SlaGauge
            title={titleOf(w)}
            percent={data.sla_breached}
            breached={data.sla_breached_count}
            total={data.count}
            period={range}
            onOpen={(breached) => open('sla', String(breached))}
          />
        );
      case 'mitre':
        return (
          <MitreMatrix
            matrix={mitre.data}
            counts={data.mitre}
            hrefOf={(id) => link('mitre', id)}
            onOpen={(id) => open('mitre', id)}
            onDownload={() => mitreLayer.mutate(dashboardQuery(filters, range))}
            downloading={mitreLayer.isPending}
          />
        );
      default: {
        const drill = drillOf[w.kind];
        const max =
          w.kind === 'top_domains' || w.kind === 'top_ips'
            ? DASHBOARD_TOP_N
            : w.chart === 'bar' && (w.kind === 'status' || w.kind === 'category')
              ? DASHBOARD_BAR_MAX
              : undefined;
        return (
          <ItemsChart
            title={titleOf(w)}
            chart={w.chart}
            entries={entries(data, w.kind)}
            max={max}
            testId={`widget-${w.id}`}
            emptyText={t('dashboard.widget.empty')}
            valuesLabel={t('dashboard.widget.values', { title: titleOf(w) })}
            onOpen={drill ? (e) => open(drill, e.item) : undefined}
            colors={w.kind === 'priority' ? priorityColors : undefined}
          />
        );
      }
    }
  };

  const frame = (w: Widget, movable = true) => (
    <WidgetFrame
      id={w.id}
      kind={w.kind}
      title={titleOf(w)}
      chart={w.chart}
      movable={movable}
      onRename={(title) => update((s) => updateWidget(s, w.id, { title }))}
      onRemove={() => remove(w)}
      onChartType={(chart) => update((s) => updateWidget(s, w.id, { chart }))}
    >
      {() => content(w)}
    </WidgetFrame>
  );

  return (
    <Flex vertical gap={16} data-testid="dashboard-page">
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          {t('dashboard.title')}
        </Typography.Title>
        <Flex gap={8} wrap align="center">
          <DateRangeInput
            aria-label={t('dashboard.header.range')}
            data-testid="dashboard-range"
            value={[dayjs(range.from), dayjs(range.to)]}
            presets={presets}
            allowClear={false}
            onChange={(dates) => {
              if (dates?.[0] && dates[1]) setRange(dayRange(dates[0], dates[1]));
              else setRange(null);
            }}
          />
          {systems.length > 1 ? (
            <Select
              mode="multiple"
              allowClear
              aria-label={t('dashboard.header.tenants')}
              placeholder={t('dashboard.header.allTenants')}
              style={{ minWidth: 220 }}
              value={selectedSystems}
              onChange={setSystems}
              options={systems.map((s) => ({ value: s.id, label: `${s.is_id} ${s.full_name}` }))}
              maxTagCount="responsive"
              data-testid="dashboard-tenants"
            />
          ) : null}
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('dashboard.header.refresh')}
            onClick={() => {
              void analytics.refetch();
              if (!hideEps) void eps.refetch();
            }}
            loading={analytics.isFetching}
          />
          {/* a disabled button says why: a tooltip on the wrapper, since a disabled button gets no
              pointer events */}
          <Tooltip title={missing.length === 0 ? t('dashboard.header.allWidgetsShown') : undefined}>
            <span data-testid="dashboard-add-widget-wrap">
              <Dropdown
                disabled={missing.length === 0}
                menu={{
                  items: missing.map((kind) => ({ key: kind, label: t(`dashboard.widgets.${kind}`) })),
                  onClick: ({ key }) => update((s) => addWidget(s, key as WidgetKind)),
                }}
              >
                <Button icon={<PlusOutlined />} data-testid="dashboard-add-widget">
                  {t('dashboard.header.addWidget')}
                </Button>
              </Dropdown>
            </span>
          </Tooltip>
          <Button icon={<UndoOutlined />} onClick={restore} data-testid="dashboard-restore">
            {t('dashboard.header.restoreLayout')}
          </Button>
        </Flex>
      </Flex>

      {analytics.isError && !analytics.data ? (
        <Result
          status="error"
          title={t('dashboard.loadFailed')}
          extra={<Button onClick={() => void analytics.refetch()}>{t('dashboard.widget.retry')}</Button>}
        />
      ) : analytics.data ? (
        <Factoids data={analytics.data} hideEps={hideEps} />
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} />
      )}

      {isPhone ? (
        <Flex vertical gap={DASHBOARD_GRID.margin} data-testid="dashboard-stack">
          {stackedWidgets(state).map(({ widget, height }) => (
            <div key={widget.id} style={{ height }}>
              {frame(widget, false)}
            </div>
          ))}
        </Flex>
      ) : (
        <div ref={containerRef} style={{ marginInline: -DASHBOARD_GRID.margin }} data-testid="dashboard-grid">
          {mounted ? (
            <ReactGridLayout
              width={width}
              layout={layout}
              compactor={verticalCompactor}
              gridConfig={{
                cols: DASHBOARD_GRID.cols,
                rowHeight: DASHBOARD_GRID.rowHeight,
                margin: [DASHBOARD_GRID.margin, DASHBOARD_GRID.margin],
              }}
              dragConfig={{ handle: '.dashboard-drag-handle', cancel: '.dashboard-no-drag' }}
              onLayoutChange={onLayoutChange}
              style={{ color: token.colorText }}
            >
              {state.widgets.map((w) => (
                <div key={w.id}>{frame(w)}</div>
              ))}
            </ReactGridLayout>
          ) : null}
        </div>
      )}
    </Flex>
  );
}
