import type { ChartType } from '@soc/contracts';
import { Empty, theme } from 'antd';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { visuallyHidden } from '@/shared/ui/visuallyHidden.ts';
import { pieOption } from '../lib/pieOption.ts';
import { formatCount } from '@/shared/lib/formatNumber.ts';
import { EChart } from './EChart.tsx';

/** A value of a chart with its display name and, where the list can filter by it, its link. */
export interface ChartEntry {
  item: string;
  label: string;
  value: number;
  href?: string;
}

export type ItemsChartProps = {
  title: string;
  chart: ChartType;
  entries: ChartEntry[];
  /** At most this many bars (product §A4: status and category 9, top lists 5). */
  max?: number;
  testId: string;
  emptyText: string;
  valuesLabel: string;
  onOpen?: (entry: ChartEntry) => void;
  /** Fixed colours per item (priorities), else the theme's palette. */
  colors?: Record<string, string>;
};

/** What echarts passes to a formatter of a slice or bar (percent: pies only). */
type ChartParams = { name: string; value: number; percent: number };

/** A bar or pie chart of item/value pairs; a click on a bar or slice opens the incident list. */
export function ItemsChart({
  title,
  chart,
  entries,
  max,
  testId,
  emptyText,
  valuesLabel,
  onOpen,
  colors,
}: ItemsChartProps) {
  const { token } = theme.useToken();
  // pie slices from the largest, clockwise from the top; bars in the given order
  const shown = useMemo(() => {
    const list = chart === 'pie' ? [...entries].sort((a, b) => b.value - a.value) : entries;
    return max ? list.slice(0, max) : list;
  }, [entries, chart, max]);

  const option = useMemo(() => {
    const data = shown.map((e) => ({
      name: e.label,
      value: e.value,
      ...(colors?.[e.item] ? { itemStyle: { color: colors[e.item] } } : {}),
    }));
    const textStyle = { color: token.colorText, fontFamily: token.fontFamily };
    if (chart === 'pie')
      return {
        textStyle,
        ...pieOption(data, {
          text: token.colorText,
          secondaryText: token.colorTextSecondary,
          background: token.colorBgContainer,
        }),
      };
    return {
      textStyle,
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        valueFormatter: (value: number) => formatCount(value),
      },
      grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
      xAxis: {
        type: 'value',
        minInterval: 1,
        axisLabel: { color: token.colorTextSecondary, formatter: (value: number) => formatCount(value) },
      },
      yAxis: {
        type: 'category',
        inverse: true,
        data: shown.map((e) => e.label),
        axisLabel: { color: token.colorText, width: 160, overflow: 'truncate' },
      },
      series: [
        {
          type: 'bar',
          data,
          barMaxWidth: 24,
          itemStyle: { borderRadius: [0, 4, 4, 0] },
          label: {
            show: true,
            position: 'right',
            color: token.colorText,
            formatter: (p: ChartParams) => formatCount(p.value),
          },
        },
      ],
    };
  }, [shown, chart, colors, token]);

  if (shown.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  return (
    <>
      <EChart
        option={option}
        label={title}
        testId={`${testId}-chart`}
        onClick={onOpen ? (e) => shown[e.dataIndex] && onOpen(shown[e.dataIndex]!) : undefined}
      />
      {/* the chart's values as text, for screen readers and keyboard users */}
      <ul aria-label={valuesLabel} style={visuallyHidden} data-testid={`${testId}-values`}>
        {shown.map((e) => (
          <li key={e.item} data-item={e.item} data-value={e.value}>
            {e.href ? (
              <Link to={e.href}>{`${e.label}: ${formatCount(e.value)}`}</Link>
            ) : (
              `${e.label}: ${formatCount(e.value)}`
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
