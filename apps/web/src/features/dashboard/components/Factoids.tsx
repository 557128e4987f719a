import type { Analytics } from '@soc/contracts';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatCount, formatNumber, formatPercent } from '@/shared/lib/formatNumber.ts';
import { percentChange } from '../lib/range.ts';
import { useTrendColors } from '../lib/trendColors.ts';

/** One comparison line: the change against the previous period of the same length. */
function Change({ now, before }: { now: number; before: number | undefined }) {
  const { t } = useTranslation();
  const colors = useTrendColors();
  if (before === undefined) return null;
  const change = percentChange(now, before);
  if (change === null)
    return <Typography.Text type="secondary">{t('dashboard.factoids.noPrevious')}</Typography.Text>;
  return (
    <Typography.Text
      type={change === 0 ? 'secondary' : undefined}
      style={change === 0 ? undefined : { color: change > 0 ? colors.bad : colors.good }}
    >
      {t('dashboard.factoids.change', { value: formatPercent(change, undefined, { signed: true }) })}
    </Typography.Text>
  );
}

/** The key figures of the period with the previous period's comparison. */
export function Factoids({ data, hideEps }: { data: Analytics; hideEps: boolean }) {
  const { t } = useTranslation();
  const prev = data.previous;
  const cards = [
    {
      key: 'count',
      title: t('dashboard.factoids.count'),
      value: formatCount(data.count),
      extra: (
        <>
          <Change now={data.count} before={prev?.count} />
          {prev ? (
            <div>
              <Typography.Text type="secondary">
                {t('dashboard.factoids.previous', { value: formatCount(prev.count) })}
              </Typography.Text>
            </div>
          ) : null}
        </>
      ),
    },
    { key: 'critical', title: t('dashboard.factoids.critical'), value: formatCount(data.critical_count) },
    { key: 'waiting', title: t('dashboard.factoids.waiting'), value: formatCount(data.waiting_for_customer) },
    {
      key: 'sla',
      title: t('dashboard.factoids.slaBreached'),
      value: formatPercent(data.sla_breached),
      extra: prev ? (
        <Typography.Text type="secondary">
          {t('dashboard.factoids.previous', { value: formatPercent(prev.sla_breached) })}
        </Typography.Text>
      ) : null,
    },
    ...(hideEps
      ? []
      : [
          {
            key: 'eps',
            title: t('dashboard.factoids.eps'),
            value: `${formatNumber(data.eps.average)} / ${formatNumber(data.eps.max)}`,
            extra: (
              <Typography.Text type="secondary">
                {t('dashboard.factoids.contracted', { value: formatNumber(data.eps.contracted) })}
              </Typography.Text>
            ),
          },
        ]),
  ];
  return (
    <section aria-label={t('dashboard.factoids.label')}>
      <Row gutter={[16, 16]}>
        {cards.map((c) => (
          <Col
            key={c.key}
            xs={24}
            sm={12}
            lg={hideEps ? 6 : undefined}
            flex={hideEps ? undefined : '1 1 200px'}
          >
            <Card size="small" data-testid={`factoid-${c.key}`} style={{ height: '100%' }}>
              <Statistic title={c.title} value={c.value} />
              {c.extra}
            </Card>
          </Col>
        ))}
      </Row>
    </section>
  );
}
