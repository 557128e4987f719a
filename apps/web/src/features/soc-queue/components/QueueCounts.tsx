import { Button, Flex, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useQueueCountsQuery } from '../api/useQueueCountsQuery.ts';
import '../i18n/texts.ts';

export type QueueCountsProps = {
  params: URLSearchParams;
  /** The tenants (system ids) picked in the filter. */
  selected: readonly string[];
  /** Picks one tenant, or none (every tenant) with null. */
  onPick: (systemId: string | null) => void;
};

/** What waits per tenant, as chips that filter the queue by their tenant. */
export function QueueCounts({ params, selected, onPick }: QueueCountsProps) {
  const { t } = useTranslation();
  const counts = useQueueCountsQuery(params);
  if (counts.isPending) return <Skeleton.Input active size="small" data-testid="soc-queue-counts-loading" />;
  if (counts.isError) {
    return (
      <Typography.Text type="secondary" data-testid="soc-queue-counts-error">
        {t('socQueue.counts.failed')}
      </Typography.Text>
    );
  }
  return (
    <Flex
      gap="small"
      wrap
      align="center"
      role="group"
      aria-label={t('socQueue.counts.label')}
      data-testid="soc-queue-counts"
    >
      <Button
        size="small"
        type={selected.length === 0 ? 'primary' : 'default'}
        aria-pressed={selected.length === 0}
        onClick={() => onPick(null)}
        data-testid="soc-queue-count-all"
      >
        {t('socQueue.counts.all', { count: counts.data.total })}
      </Button>
      {counts.data.results.map(({ system, count }) => {
        const id = String(system.id);
        const checked = selected.length === 1 && selected[0] === id;
        return (
          <Button
            key={system.id}
            size="small"
            type={checked ? 'primary' : 'default'}
            aria-pressed={checked}
            title={system.full_name}
            onClick={() => onPick(checked ? null : id)}
            data-testid="soc-queue-count"
            data-system={id}
          >
            {t('socQueue.counts.tenant', { tenant: system.is_id, count })}
          </Button>
        );
      })}
    </Flex>
  );
}
