import { Button, Flex, Typography, theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/shared/lib/formatDateTime.ts';
import type { DateRange } from '../lib/range.ts';
import { formatPercent } from '@/shared/lib/formatNumber.ts';
import { EChart } from './EChart.tsx';

export type SlaGaugeProps = {
  title: string;
  percent: number;
  breached: number;
  total: number;
  /** The dashboard's period, which the rate covers. */
  period: DateRange;
  /** Opens the incident list with sla_breached set to the value. */
  onOpen: (breached: boolean) => void;
};

/**
 * The share of the period's incidents whose SLA was breached, named with its period above the
 * dial; a click filters by breached or not.
 */
export function SlaGauge({ title, percent, breached, total, period, onOpen }: SlaGaugeProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const option = useMemo(
    () => ({
      textStyle: { color: token.colorText, fontFamily: token.fontFamily },
      series: [
        {
          type: 'gauge',
          min: 0,
          max: 100,
          radius: '90%',
          center: ['50%', '60%'],
          startAngle: 200,
          endAngle: -20,
          progress: {
            show: true,
            width: 14,
            itemStyle: { color: percent > 10 ? token.colorError : token.colorSuccess },
          },
          axisLine: { lineStyle: { width: 14, color: [[1, token.colorFillSecondary]] } },
          axisTick: { show: false },
          splitLine: { length: 8, lineStyle: { color: token.colorTextTertiary } },
          axisLabel: { color: token.colorTextSecondary, distance: 18 },
          pointer: { show: false },
          detail: {
            valueAnimation: true,
            formatter: (value: number) => formatPercent(value),
            color: token.colorText,
            fontSize: 24,
            offsetCenter: [0, '10%'],
          },
          data: [{ value: percent, name: t('dashboard.sla.share', { value: formatPercent(percent) }) }],
          title: { show: false },
        },
      ],
    }),
    [percent, token, t],
  );
  return (
    <Flex vertical style={{ height: '100%' }}>
      <Flex vertical align="center" data-testid="sla-caption">
        <Typography.Text strong>{t('dashboard.sla.rate')}</Typography.Text>
        <Typography.Text type="secondary">
          {t('dashboard.sla.period', { from: formatDate(period.from), to: formatDate(period.to) })}
        </Typography.Text>
      </Flex>
      <div style={{ flex: 1, minHeight: 0 }}>
        <EChart
          option={option}
          label={`${title}: ${t('dashboard.sla.share', { value: formatPercent(percent) })}`}
          testId="widget-sla-chart"
          onClick={() => onOpen(true)}
        />
      </div>
      <Flex justify="center" gap={8} wrap>
        <Button size="small" onClick={() => onOpen(true)} data-testid="sla-breached">
          {t('dashboard.sla.breached', { count: breached })}
        </Button>
        <Button size="small" onClick={() => onOpen(false)} data-testid="sla-not-breached">
          {t('dashboard.sla.notBreached', { count: total - breached })}
        </Button>
      </Flex>
    </Flex>
  );
}
