import { useEffect, useRef } from 'react';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { useThemeMode } from '@/shared/theme/ThemeModeContext.tsx';
import { echarts, type EChartsOption } from './echarts.ts';

/** What a click on a data point reports: the series data's name (the item) and its index. */
export interface ChartClick {
  name: string;
  dataIndex: number;
  seriesType: string;
}

export type EChartProps = {
  option: EChartsOption;
  onClick?: (event: ChartClick) => void;
  height?: number | string;
  testId?: string;
  /** Accessible name of the chart image. */
  label: string;
};

/**
 * One ECharts chart (SVG) in the portal's theme and language: it is created again when either
 * changes, resized with its box, and disposed on unmount.
 */
export function EChart({ option, onClick, height = '100%', testId, label }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof echarts.init> | null>(null);
  const { mode } = useThemeMode();
  const language = useLanguage();
  const clickRef = useRef(onClick);
  clickRef.current = onClick;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const instance = echarts.init(el, mode === 'dark' ? 'dark' : undefined, {
      renderer: 'svg',
      locale: language === 'ru' ? 'RU' : 'EN',
    });
    chart.current = instance;
    instance.on('click', (params) => {
      const p = params as { name?: string; dataIndex?: number; seriesType?: string };
      clickRef.current?.({
        name: String(p.name ?? ''),
        dataIndex: p.dataIndex ?? 0,
        seriesType: p.seriesType ?? '',
      });
    });
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [mode, language]);

  useEffect(() => {
    // transparent: the card's background shows through in both themes
    chart.current?.setOption({ backgroundColor: 'transparent', ...option }, true);
  }, [option, mode, language]);

  return (
    <div
      ref={ref}
      role="img"
      aria-label={label}
      data-testid={testId}
      data-chart-theme={mode}
      style={{ width: '100%', height, minHeight: 120, cursor: onClick ? 'pointer' : undefined }}
    />
  );
}
