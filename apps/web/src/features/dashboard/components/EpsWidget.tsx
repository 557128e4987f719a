import { EPS_CHART_HEIGHT, type Eps } from '@soc/contracts';
import { Alert, Button, Empty, Flex, Spin, Typography, theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../shared/hooks/useLanguage.ts';
import { durationHours, epsColumnStyle, epsGridStep } from '../lib/epsStyle.ts';
import { formatNumber } from '../../../shared/lib/formatNumber.ts';
import { EChart } from './EChart.tsx';
import { useTrendColors } from '../lib/trendColors.ts';

export type EpsWidgetProps = {
  title: string;
  data: Eps | undefined;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
};

/** EPS columns (550 px) against the contracted EPS; hours above it are highlighted. */
export function EpsWidget({ title, data, isPending, isError, onRetry }: EpsWidgetProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const trend = useTrendColors();
  const language = useLanguage();
  const option = useMemo(() => {
    if (!data) return null;
    const points = data.timeline.length;
    const { barMaxWidth, borderRadius } = epsColumnStyle(points);
    const contracted = data.contracted_eps;
    const hourly = data.timeline[0]?.timespan === 'hour';
    const format = new Intl.DateTimeFormat(language === 'ru' ? 'ru-RU' : 'en-GB', {
      day: '2-digit',
      month: 'short',
      ...(hourly ? { hour: '2-digit', minute: '2-digit' } : {}),
    });
    const max = Math.max(contracted, ...data.timeline.map((p) => p.value));
    const step = epsGridStep(contracted);
    return {
      textStyle: { color: token.colorText, fontFamily: token.fontFamily },
      tooltip: { trigger: 'axis', valueFormatter: (value: number) => formatNumber(value, language) },
      legend: { top: 0, textStyle: { color: token.colorTextSecondary } },
      grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
      xAxis: {
        type: 'category',
        data: data.timeline.map((p) => format.format(new Date(p.item))),
        axisLabel: { color: token.colorTextSecondary },
      },
      yAxis: {
        type: 'value',
        interval: step,
        max: Math.ceil((max * 1.1) / step) * step || step,
        axisLabel: {
          color: token.colorTextSecondary,
          formatter: (value: number) => formatNumber(value, language),
        },
      },
      series: [
        {
          type: 'bar',
          name: t('dashboard.eps.value'),
          barMaxWidth,
          itemStyle: { borderRadius: [borderRadius, borderRadius, 0, 0] },
          data: data.timeline.map((p) => ({
            value: p.value,
            itemStyle:
              contracted > 0 && p.value > contracted
                ? { color: token.colorError }
                : { color: token.colorPrimary },
          })),
          ...(contracted > 0
            ? {
                markLine: {
                  symbol: 'none',
                  data: [{ yAxis: contracted, name: t('dashboard.eps.contracted') }],
                  lineStyle: { color: token.colorWarning, type: 'dashed', width: 2 },
                  label: {
                    formatter: () =>
                      `${t('dashboard.eps.contracted')}: ${formatNumber(contracted, language)}`,
                    color: token.colorText,
                  },
                },
              }
            : {}),
        },
      ],
    };
  }, [data, token, language, t]);

  if (isError)
    return (
      <Alert
        type="error"
        showIcon
        title={t('dashboard.widget.loadFailed')}
        action={
          <Button size="small" onClick={onRetry}>
            {t('dashboard.widget.retry')}
          </Button>
        }
      />
    );
  if (isPending || !data || !option) return <Spin />;
  if (data.timeline.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.widget.empty')} />;
  const summary =
    data.contracted_eps === 0
      ? t('dashboard.eps.noContract')
      : data.excess.excess_count === 0
        ? t('dashboard.eps.noExcess')
        : t('dashboard.eps.excessSummary', {
            count: data.excess.excess_count,
            duration: t('dashboard.eps.hours', { count: durationHours(data.excess_duration) }),
            max: formatNumber(data.excess_max_value, language),
          });
  return (
    <Flex vertical gap={8}>
      <Typography.Text
        type={data.excess.excess_count > 0 ? undefined : 'secondary'}
        style={data.excess.excess_count > 0 ? { color: trend.bad } : undefined}
        data-testid="eps-summary"
      >
        {summary}
      </Typography.Text>
      <EChart option={option} label={title} height={EPS_CHART_HEIGHT} testId="widget-eps-chart" />
    </Flex>
  );
}
