import type { Snapshot } from '@soc/contracts';
import { Alert as AntAlert, Button, Empty, Flex, Skeleton, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSnapshotsQuery } from '../api/useIncidentTabsQueries.ts';
import '../../alerts/index.ts';
import { ASSET_CRITICALITY_COLORS, colorOf } from '@/shared/theme/domainColors.ts';

/** A column whose values are read whole (host names, ids, addresses). */
const unbroken = { onCell: () => ({ style: { whiteSpace: 'nowrap' as const } }) };

export type AssetsTabProps = { incidentKey: number };

/** CMDB assets of the incident as they were when involved (GET {incident}/snapshots/, paged through next). */
export function AssetsTab({ incidentKey }: AssetsTabProps) {
  const { t } = useTranslation();
  const query = useSnapshotsQuery(incidentKey);
  if (query.isPending) return <Skeleton active data-testid="assets-loading" />;
  if (query.isError) return <AntAlert type="error" showIcon title={t('alerts.assets.loadFailed')} />;
  const rows = query.data.pages.flatMap((page) => page.results);
  if (!rows.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alerts.empty')} />;
  return (
    <Flex vertical gap="small">
      <Table<Snapshot>
        size="small"
        rowKey="id"
        aria-label={t('alerts.assets.label')}
        data-testid="incident-assets"
        dataSource={rows}
        pagination={false}
        // host names and CMDB ids are read whole: they never break, the table scrolls instead
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'name', title: t('alerts.assets.name'), dataIndex: 'name', ...unbroken },
          { key: 'cmdb', title: t('alerts.assets.cmdbId'), dataIndex: 'cmdb_id', ...unbroken },
          { key: 'type', title: t('alerts.assets.type'), dataIndex: 'asset_type' },
          { key: 'os', title: t('alerts.assets.os'), dataIndex: 'os' },
          { key: 'ip', title: t('alerts.assets.ip'), dataIndex: 'ip_address', ...unbroken },
          {
            key: 'criticality',
            title: t('alerts.assets.criticality'),
            dataIndex: 'criticality',
            render: (value: string) => <Tag color={colorOf(ASSET_CRITICALITY_COLORS, value)}>{value}</Tag>,
          },
          { key: 'alerts', title: t('alerts.assets.alerts'), dataIndex: 'alerts_count', align: 'right' },
        ]}
      />
      {query.hasNextPage && (
        <Button onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
          {t('alerts.assets.more')}
        </Button>
      )}
    </Flex>
  );
}
