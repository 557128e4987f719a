import type { Misconfig } from '@soc/contracts';
import { Alert as AntAlert, Button, Empty, Flex, Skeleton, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMisconfigsQuery } from '../api/useIncidentTabsQueries.ts';
import '../../alerts/index.ts';
import { colorOf, MISCONFIG_SEVERITY_COLORS } from '@/shared/theme/domainColors.ts';

export type MisconfigsTabProps = { incidentKey: number };

/** Misconfigurations of a Remediation incident (GET /soc/incs/{key}/misconfigs/). */
export function MisconfigsTab({ incidentKey }: MisconfigsTabProps) {
  const { t } = useTranslation();
  const query = useMisconfigsQuery(incidentKey);
  if (query.isPending) return <Skeleton active />;
  if (query.isError) return <AntAlert type="error" showIcon title={t('alerts.misconfigs.loadFailed')} />;
  const rows = query.data.pages.flatMap((page) => page.results);
  if (!rows.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alerts.empty')} />;
  return (
    <Flex vertical gap="small">
      <Table<Misconfig>
        size="small"
        rowKey="id"
        data-testid="incident-misconfigs"
        dataSource={rows}
        pagination={false}
        expandable={{
          expandedRowRender: (row) => (
            <Flex vertical gap={4}>
              <Typography.Text>{row.description}</Typography.Text>
              <Typography.Text strong>{t('alerts.misconfigs.recommendation')}:</Typography.Text>
              <Typography.Text>{row.recommendation}</Typography.Text>
            </Flex>
          ),
        }}
        columns={[
          { key: 'title', title: t('alerts.misconfigs.title'), dataIndex: 'title' },
          {
            key: 'severity',
            title: t('alerts.misconfigs.severity'),
            dataIndex: 'severity',
            render: (value: string) => <Tag color={colorOf(MISCONFIG_SEVERITY_COLORS, value)}>{value}</Tag>,
          },
          {
            key: 'status',
            title: t('alerts.misconfigs.status'),
            dataIndex: 'status',
            render: (value: Misconfig['status']) => t(`alerts.misconfigs.statuses.${value}`),
          },
          {
            key: 'assets',
            title: t('alerts.misconfigs.asset'),
            render: (_, row) => row.affected_assets.join(', ') || '—',
          },
        ]}
      />
      {query.hasNextPage && (
        <Button onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
          {t('alerts.misconfigs.more')}
        </Button>
      )}
    </Flex>
  );
}
