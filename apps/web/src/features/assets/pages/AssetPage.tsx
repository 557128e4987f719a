import { ArrowLeftOutlined } from '@ant-design/icons';
import type { Asset, AssetIncident, SoftwareItem } from '@soc/contracts';
import { SOFTWARE_PANEL_MAX_WIDTH, SOFTWARE_PANEL_MIN_WIDTH } from '@soc/contracts';
import {
  Alert,
  Breadcrumb,
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Result,
  Skeleton,
  Table,
  Tabs,
  Tag,
  Typography,
  theme,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '@/shared/api/index.ts';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { IncidentPriorityTag } from '@/shared/ui/IncidentPriorityTag.tsx';
import { IncidentStatusTag } from '@/shared/ui/IncidentStatusTag.tsx';
import { CountBadge } from '@/shared/ui/CountBadge.tsx';
import { SearchBox } from '@/shared/ui/SearchBox.tsx';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { useAssetIncidentsCountQuery, useAssetSoftwareCountQuery } from '../api/useAssetCountsQuery.ts';
import { useAssetIncidentsQuery } from '../api/useAssetIncidentsQuery.ts';
import { useAssetQuery } from '../api/useAssetQuery.ts';
import { useAssetSoftwareQuery } from '../api/useAssetSoftwareQuery.ts';
import { AssetCriticalityTag } from '../components/AssetCriticalityTag.tsx';
import { LoadMore } from '../components/LoadMore.tsx';
import { ResizablePanel } from '../components/ResizablePanel.tsx';
import '../i18n/texts.ts';

type Tab = 'incidents' | 'software';

/** A tab's count badge (product §B9), muted at zero; nothing while the count loads. */
function TabCount({ count, testId }: { count: number | undefined; testId: string }) {
  const { token } = theme.useToken();
  if (count === undefined) return null;
  return (
    <CountBadge
      count={count}
      showZero
      color={count ? token.colorPrimary : token.colorTextDisabled}
      style={{ marginInlineStart: token.marginXS }}
      data-testid={testId}
    />
  );
}

/** The asset page, /cmdb/assets/{assetId} (product §B2): header, Incidents and Installed software. Read-only. */
export function AssetPage() {
  const cmdbId = useParams().assetId ?? '';
  return <AssetView key={cmdbId} cmdbId={cmdbId} />;
}

function AssetView({ cmdbId }: { cmdbId: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const asset = useAssetQuery(cmdbId);
  const incidentsCount = useAssetIncidentsCountQuery(cmdbId);
  const softwareCount = useAssetSoftwareCountQuery(cmdbId);
  const [tab, setTab] = useState<Tab>('incidents');
  useDocumentTitle(asset.data?.name ?? t('pages.assets'));

  if (asset.isError) {
    if (asset.error instanceof ApiError && asset.error.status === 404) {
      return (
        <Result
          status="404"
          title={t('assets.page.notFound')}
          extra={
            <Link to="/cmdb/assets">
              <Button type="primary">{t('assets.page.breadcrumb')}</Button>
            </Link>
          }
          data-testid="asset-not-found"
        />
      );
    }
    return (
      <Alert
        type="error"
        showIcon
        message={t('assets.page.loadFailed')}
        action={<Button onClick={() => void asset.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }

  return (
    <Flex vertical gap="middle" data-testid="asset-page">
      <Flex align="center" gap="small">
        <Button
          type="text"
          size="small"
          icon={<ArrowLeftOutlined aria-hidden />}
          aria-label={t('assets.page.back')}
          title={t('assets.page.back')}
          onClick={() => void navigate('/cmdb/assets')}
        />
        <Breadcrumb
          items={[
            { title: <Link to="/cmdb/assets">{t('assets.page.breadcrumb')}</Link> },
            { title: <span aria-current="page">{asset.data?.name ?? cmdbId}</span> },
          ]}
        />
      </Flex>
      {!asset.data ? <Skeleton active paragraph={{ rows: 6 }} /> : <AssetHeader asset={asset.data} />}
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as Tab)}
        items={[
          {
            key: 'incidents',
            label: (
              <span data-testid="asset-tab-incidents">
                {t('assets.page.tabs.incidents')}
                <TabCount count={incidentsCount.data} testId="asset-incidents-count" />
              </span>
            ),
            children: <AssetIncidents cmdbId={cmdbId} />,
          },
          {
            key: 'software',
            label: (
              <span data-testid="asset-tab-software">
                {t('assets.page.tabs.software')}
                <TabCount count={softwareCount.data} testId="asset-software-count" />
              </span>
            ),
            children: <AssetSoftware cmdbId={cmdbId} />,
          },
        ]}
        style={{ minHeight: token.controlHeight * 10 }}
      />
    </Flex>
  );
}

function AssetHeader({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const { token } = theme.useToken();
  return (
    <Card size="small" data-testid="asset-header">
      <Flex align="center" gap="small" wrap style={{ marginBottom: token.marginSM }}>
        <Typography.Title
          level={1}
          style={{ margin: 0, fontSize: token.fontSizeHeading3 }}
          data-testid="asset-title"
        >
          {asset.name}
        </Typography.Title>
        <AssetCriticalityTag value={asset.criticality} />
        <Tag>{t(`assets.types.${asset.asset_type}`)}</Tag>
        <Tag bordered={false}>{t('assets.page.readOnly')}</Tag>
      </Flex>
      <Descriptions
        size="small"
        column={isPhone ? 1 : 3}
        items={[
          { key: 'cmdb', label: t('assets.page.fields.cmdbId'), children: asset.cmdb_id },
          {
            key: 'system',
            label: t('assets.page.fields.system'),
            children: (
              <Link
                to={`/tenants/${asset.system.id}`}
              >{`${asset.system.is_id} ${asset.system.full_name}`}</Link>
            ),
          },
          { key: 'os', label: t('assets.page.fields.os'), children: asset.os || '—' },
          { key: 'ip', label: t('assets.page.fields.ip'), children: asset.ip_address || '—' },
          { key: 'fqdn', label: t('assets.page.fields.fqdn'), children: asset.fqdn || '—' },
          { key: 'mac', label: t('assets.page.fields.mac'), children: asset.mac_address || '—' },
          { key: 'owner', label: t('assets.page.fields.owner'), children: asset.owner || '—' },
          { key: 'location', label: t('assets.page.fields.location'), children: asset.location || '—' },
          {
            key: 'first',
            label: t('assets.page.fields.firstSeen'),
            children: formatDateTime(asset.first_seen),
          },
          { key: 'last', label: t('assets.page.fields.lastSeen'), children: formatDateTime(asset.last_seen) },
        ]}
      />
    </Card>
  );
}

function AssetIncidents({ cmdbId }: { cmdbId: string }) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const query = useAssetIncidentsQuery(cmdbId);
  const rows = query.data?.pages.flatMap((p) => p.results) ?? [];
  if (query.isError && rows.length === 0) {
    return (
      <Alert
        type="error"
        showIcon
        message={t('assets.page.incidents.loadFailed')}
        action={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  return (
    <>
      <Table<AssetIncident>
        rowKey="key"
        // on a phone the cells take the width they need and the table scrolls inside its card
        scroll={isPhone ? { x: 'max-content' } : undefined}
        size="small"
        pagination={false}
        loading={query.isLoading}
        dataSource={rows}
        locale={{ emptyText: t('assets.page.incidents.empty') }}
        data-testid="asset-incidents"
        columns={[
          {
            key: 'key',
            title: t('assets.page.incidents.key'),
            render: (_, i) => <Link to={`/inc/${i.key}`}>{i.key}</Link>,
            width: 110,
          },
          { key: 'summary', title: t('assets.page.incidents.summary'), dataIndex: 'summary', ellipsis: true },
          {
            key: 'status',
            title: t('assets.page.incidents.status'),
            render: (_, i) => <IncidentStatusTag status={i.status} />,
          },
          {
            key: 'priority',
            title: t('assets.page.incidents.priority'),
            render: (_, i) => <IncidentPriorityTag priority={i.priority} />,
          },
          {
            key: 'created',
            title: t('assets.page.incidents.created'),
            render: (_, i) => formatDateTime(i.created),
          },
        ]}
      />
      <LoadMore
        hasMore={query.hasNextPage}
        loading={query.isFetchingNextPage}
        onLoad={() => {
          if (!query.isFetchingNextPage) void query.fetchNextPage();
        }}
        label={t('assets.page.incidents.loadMore')}
        testId="asset-incidents-more"
      />
    </>
  );
}

function AssetSoftware({ cmdbId }: { cmdbId: string }) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const query = useAssetSoftwareQuery(cmdbId, search);
  const rows = query.data?.pages.flatMap((p) => p.results) ?? [];
  const selected = rows.find((r) => r.id === selectedId) ?? rows[0] ?? null;

  return (
    <Flex gap="middle" align="stretch">
      <Flex vertical gap="small" style={{ flex: 1, minWidth: 0 }}>
        <SearchBox
          value={search}
          onSearch={setSearch}
          placeholder={t('assets.page.software.searchPlaceholder')}
          label={t('assets.page.software.searchLabel')}
          buttonText={t('assets.page.software.searchButton')}
          testId="asset-software-search"
          width="360px"
          clearsWhenEmptied
        />
        {query.isError && rows.length === 0 ? (
          <Alert
            type="error"
            showIcon
            message={t('assets.page.software.loadFailed')}
            action={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
          />
        ) : (
          <>
            <Table<SoftwareItem>
              rowKey="id"
              // on a phone the cells take the width they need and the table scrolls inside its card
              scroll={isPhone ? { x: 'max-content' } : undefined}
              size="small"
              pagination={false}
              loading={query.isLoading}
              dataSource={rows}
              locale={{ emptyText: t('assets.page.software.empty') }}
              rowClassName={(r) => (r.id === selected?.id ? 'ant-table-row-selected' : '')}
              onRow={(r) => ({ onClick: () => setSelectedId(r.id), style: { cursor: 'pointer' } })}
              data-testid="asset-software"
              columns={[
                { key: 'name', title: t('assets.page.software.name'), dataIndex: 'name', ellipsis: true },
                {
                  key: 'vendor',
                  title: t('assets.page.software.vendor'),
                  render: (_, r) => r.vendor.name || '—',
                },
                {
                  key: 'version',
                  title: t('assets.page.software.version'),
                  render: (_, r) => r.version || '—',
                },
                {
                  key: 'install',
                  title: t('assets.page.software.installTime'),
                  render: (_, r) => formatDateTime(r.install_time),
                },
              ]}
            />
            <LoadMore
              hasMore={query.hasNextPage}
              loading={query.isFetchingNextPage}
              onLoad={() => {
                if (!query.isFetchingNextPage) void query.fetchNextPage();
              }}
              label={t('assets.page.software.loadMore')}
              testId="asset-software-more"
            />
          </>
        )}
      </Flex>
      <ResizablePanel
        minWidth={SOFTWARE_PANEL_MIN_WIDTH}
        maxWidth={SOFTWARE_PANEL_MAX_WIDTH}
        title={t('assets.page.software.panelTitle')}
        collapseLabel={t('assets.page.software.collapse')}
        expandLabel={t('assets.page.software.expand')}
        resizeLabel={t('assets.page.software.resize')}
        testId="software-panel"
      >
        {selected ? (
          <Descriptions
            size="small"
            column={1}
            bordered
            data-testid="software-panel-details"
            items={[
              { key: 'name', label: t('assets.page.software.name'), children: selected.name },
              {
                key: 'vendor',
                label: t('assets.page.software.vendor'),
                children: selected.vendor.name || '—',
              },
              { key: 'version', label: t('assets.page.software.version'), children: selected.version || '—' },
              {
                key: 'install',
                label: t('assets.page.software.installTime'),
                children: formatDateTime(selected.install_time),
              },
            ]}
          />
        ) : (
          <Empty description={t('assets.page.software.selectHint')} />
        )}
      </ResizablePanel>
    </Flex>
  );
}
