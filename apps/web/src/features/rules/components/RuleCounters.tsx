import { Alert, Flex, Progress, Skeleton, Statistic, theme, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatCount, formatPercent } from '@/shared/lib/formatNumber.ts';
import { useRuleCountersQuery } from '../api/useRuleCountersQuery.ts';
import '../i18n/texts.ts';

export type RuleCountersProps = { filters: URLSearchParams };

/** The mini dashboard of the rules mode (product §B3 Rule counters) for the list's filters. */
export function RuleCounters({ filters }: RuleCountersProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const counters = useRuleCountersQuery(filters);
  const box = {
    padding: token.paddingSM,
    borderRadius: token.borderRadiusLG,
    border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
    background: token.colorBgContainer,
    minWidth: '10rem',
  };
  if (counters.isPending) {
    return (
      <div role="status" aria-label={t('common.loading')} data-testid="rule-counters-loading">
        <Skeleton active title={false} paragraph={{ rows: 2 }} />
      </div>
    );
  }
  if (counters.isError) {
    return (
      <Alert type="error" showIcon title={t('rules.counters.failed')} data-testid="rule-counters-error" />
    );
  }
  const c = counters.data;
  const platforms = Object.entries(c.mitre_coverage_by_platform);
  return (
    <section aria-label={t('rules.counters.label')} data-testid="rule-counters">
      <Flex gap="small" wrap align="stretch">
        <div style={box}>
          <Statistic
            title={t('rules.counters.count')}
            value={formatCount(c.count)}
            data-testid="rule-counter-count"
          />
        </div>
        <div style={box}>
          <Statistic
            title={t('rules.counters.lastMonth')}
            value={formatCount(c.count_last_month)}
            data-testid="rule-counter-last-month"
          />
        </div>
        <div style={box}>
          <Statistic
            title={t('rules.counters.requested')}
            value={formatCount(c.count_is_requested)}
            data-testid="rule-counter-requested"
          />
        </div>
        <div style={box} data-testid="rule-counter-coverage">
          <Typography.Text type="secondary">{t('rules.counters.coverage')}</Typography.Text>
          {c.mitre_coverage_percent === null ? (
            <div>
              <Typography.Text type="secondary">{t('rules.counters.noAttack')}</Typography.Text>
            </div>
          ) : (
            <Flex align="center" gap="small">
              <Progress
                type="circle"
                size={56}
                percent={c.mitre_coverage_percent}
                format={(p) => formatPercent(p ?? 0)}
                aria-label={t('rules.counters.coverage')}
              />
            </Flex>
          )}
        </div>
        {platforms.length > 0 && (
          <div style={{ ...box, flex: '1 1 20rem' }} data-testid="rule-counter-platforms">
            <Typography.Text type="secondary">{t('rules.counters.byPlatform')}</Typography.Text>
            <Flex wrap gap="small" style={{ marginTop: token.marginXXS }}>
              {platforms.map(([platform, percent]) => (
                <Tooltip
                  key={platform}
                  title={t('rules.counters.platformTotal', {
                    percent: formatPercent(percent),
                    total: formatCount(c.mitre_total_techniques_by_platforms[platform] ?? 0),
                  })}
                >
                  <Flex vertical style={{ minWidth: '6rem' }}>
                    <Typography.Text style={{ fontSize: token.fontSizeSM }}>{platform}</Typography.Text>
                    <Progress
                      percent={percent}
                      size="small"
                      format={(p) => formatPercent(p ?? 0)}
                      aria-label={platform}
                    />
                  </Flex>
                </Tooltip>
              ))}
            </Flex>
          </div>
        )}
      </Flex>
    </section>
  );
}
