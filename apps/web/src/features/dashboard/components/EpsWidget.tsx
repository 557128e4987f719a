import { ArrowUpOutlined } from '@ant-design/icons';
import { EPS_CHART_HEIGHT, type Eps } from '@soc/contracts';
import { Alert, Button, Empty, Flex, Spin, Typography, theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { durationHours, epsAxis, epsColumnStyle } from '../lib/epsStyle.ts';
import { formatNumber } from '@/shared/lib/formatNumber.ts';
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
  const chart = useMemo(() => {
    if (!data) return null;
    const points = data.timeline.length;
    const { barMaxWidth, borderRadius } = epsColumnStyle(points);
    const contracted = data.contracted_eps;
    const hourly = data.timeline[0]?.timespan === 'hour';
    const locale = language === 'ru' ? 'ru-RU' : 'en-GB';
    const contractLabel = t('dashboard.eps.contractedValue', { value: formatNumber(contracted, language) });
    const format = new Intl.DateTimeFormat(locale, {
      day: '2-digit',
      month: 'short',
      ...(hourly ? { hour: '2-digit', minute: '2-digit' } : {}),
    });
    const axis = epsAxis(Math.max(0, ...data.timeline.map((p) => p.value)), contracted);
    const option = {
      textStyle: { color: token.colorText, fontFamily: token.fontFamily },
      tooltip: { trigger: 'axis', valueFormatter: (value: number) => formatNumber(value, language) },
      legend: { top: 0, textStyle: { color: token.colorTextSecondary } },
      grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
      xAxis: {
        type: 'category',
        data: data.timeline.map((p) => format.format(new Date(p.item))),
        axisLabel: { color: token.colorTextSecondary, hideOverlap: true },
      },
      yAxis: {
        type: 'value',
        ...(axis.contractOnAxis ? { max: axis.max, interval: axis.interval } : {}),
        axisLabel: { color: token.colorTextSecondary, formatter: (v: number) => formatNumber(v, language) },
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
          ...(axis.contractOnAxis
            ? {
                markLine: {
                  symbol: 'none',
                  silent: true,
                  data: [{ yAxis: contracted, name: t('dashboard.eps.contracted') }],
                  lineStyle: { color: token.colorWarning, type: 'dashed', width: 2 },
                  // inside the plot above the line's end: at the default 'end' it ran off the widget
                  label: {
                    position: 'insideEndTop',
                    formatter: contractLabel,
                    color: token.colorText,
                    backgroundColor: token.colorBgContainer,
                    padding: [2, 6],
                    borderRadius: token.borderRadiusSM,
                    fontSize: token.fontSizeSM,
                  },
                },
              }
            : {}),
        },
      ],
    };
    // a contract far above the data is named above the chart, not drawn off its scale
    const contractAbove = contracted > 0 && !axis.contractOnAxis ? contractLabel : null;
    return { option, contractAbove };
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
  if (isPending || !data || !chart) return <Spin />;
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
      <Flex justify="space-between" gap={8} wrap>
        <Typography.Text
          type={data.excess.excess_count > 0 ? undefined : 'secondary'}
          style={data.excess.excess_count > 0 ? { color: trend.bad } : undefined}
          data-testid="eps-summary"
        >
          {summary}
        </Typography.Text>
        {chart.contractAbove ? (
          <Typography.Text data-testid="eps-contract-above">
            <ArrowUpOutlined aria-hidden style={{ color: token.colorWarning, marginInlineEnd: 4 }} />
            {t('dashboard.eps.contractAbove', { label: chart.contractAbove })}
          </Typography.Text>
        ) : null}
      </Flex>
      <EChart option={chart.option} label={title} height={EPS_CHART_HEIGHT} testId="widget-eps-chart" />
    </Flex>
  );
}
