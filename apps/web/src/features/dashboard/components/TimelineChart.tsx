import type { TimelineEntry } from '@soc/contracts';
import { Empty, theme } from 'antd';
import { useMemo } from 'react';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { formatCount } from '@/shared/lib/formatNumber.ts';
import { EChart } from './EChart.tsx';

export type TimelineChartProps = {
  title: string;
  timeline: TimelineEntry[];
  emptyText: string;
  /** A click on a point: the bucket's start and its length. */
  onPick: (entry: TimelineEntry) => void;
};

/** Incidents registered per hour or day (UTC buckets, shown in local time). */
export function TimelineChart({ title, timeline, emptyText, onPick }: TimelineChartProps) {
  const { token } = theme.useToken();
  const language = useLanguage();
  const option = useMemo(() => {
    const hourly = timeline[0]?.timespan === 'hour';
    const format = new Intl.DateTimeFormat(language === 'ru' ? 'ru-RU' : 'en-GB', {
      day: '2-digit',
      month: 'short',
      ...(hourly ? { hour: '2-digit', minute: '2-digit' } : {}),
    });
    return {
      textStyle: { color: token.colorText, fontFamily: token.fontFamily },
      tooltip: { trigger: 'axis', valueFormatter: (value: number) => formatCount(value, language) },
      grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
      xAxis: {
        type: 'category',
        boundaryGap: false,
        data: timeline.map((e) => format.format(new Date(e.item))),
        axisLabel: { color: token.colorTextSecondary },
      },
      yAxis: {
        type: 'value',
        minInterval: 1,
        axisLabel: {
          color: token.colorTextSecondary,
          formatter: (value: number) => formatCount(value, language),
        },
      },
      series: [
        {
          type: 'line',
          name: title,
          data: timeline.map((e) => e.value),
          smooth: true,
          symbolSize: 8,
          areaStyle: { opacity: 0.15 },
          triggerLineEvent: true,
        },
      ],
    };
  }, [timeline, token, language, title]);
  if (timeline.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  return (
    <EChart
      option={option}
      label={title}
      testId="widget-timeline-chart"
      onClick={(e) => timeline[e.dataIndex] && onPick(timeline[e.dataIndex]!)}
    />
  );
}
