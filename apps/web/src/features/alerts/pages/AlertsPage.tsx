import { ALERT_BULK_MAX, type Alert } from '@soc/contracts';
import { Card, Descriptions, Flex, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { countFilterParams } from '@/shared/lib/filters.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { pageItems } from '@/shared/lib/pageItems.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { InfiniteFeed } from '@/shared/ui/InfiniteFeed.tsx';
import { ListPage } from '@/shared/ui/ListPage.tsx';
import { notifyWarning } from '@/shared/ui/notifications.tsx';
import { useIsStaff } from '../../auth/index.ts';
import { useAlertsInfiniteQuery } from '../api/useAlertsInfiniteQuery.ts';
import { AlertBulkBar } from '../components/AlertBulkBar.tsx';
import { AlertCard } from '../components/AlertCard.tsx';
import { AlertDetailPanel } from '../components/AlertDetailPanel.tsx';
import { AlertListFilterBar } from '../components/AlertListFilterBar.tsx';
import { ALERTS_FILTER_ENTITY, sanitizeAlertParams } from '../lib/alertListQuery.ts';
import '../i18n/texts.ts';

const LIST_HEIGHT = 'max(24rem, calc(100vh - 15rem))';
const CARD_HEIGHT = 96;

/**
 * /alerts (issue 40): the alerts of the user's systems, with the list conventions of the
 * incidents (filters and sort in the URL and storage, infinite scroll, a side panel); an alert
 * of an incident links to it and shows its detail there, the others their summary.
 */
export function AlertsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('pages.alerts'));
  const persisted = usePersistedFilters(ALERTS_FILTER_ENTITY);
  const params = useMemo(() => sanitizeAlertParams(persisted.params), [persisted.params]);
  const query = useAlertsInfiniteQuery(params);
  const alerts = useMemo(() => pageItems(query.data?.pages, (a) => a.uuid), [query.data]);
  const firstPage = query.data?.pages[0];
  const total = firstPage?.total ?? 0;
  const totalExact = firstPage?.total_exact ?? true;
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = alerts.find((a) => a.uuid === selectedId) ?? null;
  // staff pick alerts for the bulk actions (design §9); one that left the list is no longer picked
  const isStaff = useIsStaff() === true;
  const [picked, setPicked] = useState<string[]>([]);
  const pickedShown = useMemo(
    () => picked.filter((uuid) => alerts.some((a) => a.uuid === uuid)),
    [picked, alerts],
  );
  const pick = (uuid: string, checked: boolean) => {
    if (!checked) return setPicked(pickedShown.filter((id) => id !== uuid));
    if (pickedShown.length >= ALERT_BULK_MAX) {
      notifyWarning({ title: t('alerts.bulk.limit', { max: ALERT_BULK_MAX }), key: 'alerts-bulk-limit' });
      return;
    }
    setPicked([...pickedShown, uuid]);
  };

  return (
    <ListPage
      testId="alerts"
      title={t('alerts.screen.title')}
      total={
        query.data
          ? t(totalExact ? 'alerts.screen.total' : 'alerts.screen.totalMore', {
              low: alerts.length > 0 ? 1 : 0,
              high: alerts.length,
              total,
            })
          : null
      }
      header={
        isStaff ? (
          <Flex vertical gap="small">
            <AlertListFilterBar params={params} onChange={persisted.setParams} />
            <AlertBulkBar selected={pickedShown} onClear={() => setPicked([])} />
          </Flex>
        ) : (
          <AlertListFilterBar params={params} onChange={persisted.setParams} />
        )
      }
      query={query}
      isEmpty={alerts.length === 0}
      loadFailedText={t('alerts.loadFailed')}
      emptyText={t('alerts.screen.empty')}
      emptyFiltered={{
        search: params.get('search'),
        filters: countFilterParams(params),
        onClear: () => persisted.setParams(new URLSearchParams()),
      }}
      panel={selected && <AlertPanel key={selected.uuid} alert={selected} />}
      onPanelClose={() => setSelectedId(null)}
      panelHint={t('alerts.detail.selectHint')}
      height={LIST_HEIGHT}
    >
      <InfiniteFeed
        items={alerts}
        getKey={(a) => a.uuid}
        renderItem={(a, position) => (
          <AlertCard
            alert={a}
            selected={a.uuid === selectedId}
            onSelect={setSelectedId}
            position={position}
            setSize={total}
            checked={pickedShown.includes(a.uuid)}
            onCheck={isStaff ? pick : undefined}
          />
        )}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        nextPageFailed={query.isFetchNextPageError}
        fetchNextPage={() => void query.fetchNextPage()}
        height={LIST_HEIGHT}
        label={t('alerts.screen.title')}
        testId="alerts-list"
        estimateSize={CARD_HEIGHT}
      />
    </ListPage>
  );
}

/** The side panel: an incident's alert in full (its detail lives under the incident), else its summary. */
function AlertPanel({ alert }: { alert: Alert }) {
  const { t, i18n } = useTranslation();
  if (alert.incident !== null) return <AlertDetailPanel incidentKey={alert.incident} uuid={alert.uuid} />;
  return (
    <Card size="small" title={alert.title} data-testid="alert-summary" style={{ overflowY: 'auto' }}>
      <Flex vertical gap="small">
        <Typography.Text type="secondary">{t('alerts.screen.noIncidentHint')}</Typography.Text>
        <Descriptions
          size="small"
          column={1}
          items={[
            {
              key: 'severity',
              label: t('alerts.columns.severity'),
              children: t(`alerts.severity.${alert.severity}`),
            },
            { key: 'status', label: t('alerts.detail.status'), children: t(`alerts.status.${alert.status}`) },
            {
              key: 'system',
              label: t('alerts.screen.system'),
              children: `${alert.system.is_id} · ${alert.system.full_name}`,
            },
            {
              key: 'assets',
              label: t('alerts.columns.assets'),
              children: alert.affected_assets.map((a) => a.name).join(', ') || '—',
            },
            {
              key: 'created',
              label: t('alerts.columns.created'),
              children: formatDateTime(alert.created_time, i18n.language),
            },
            {
              key: 'updated',
              label: t('alerts.columns.updated'),
              children: formatDateTime(alert.updated_time, i18n.language),
            },
          ]}
        />
      </Flex>
    </Card>
  );
}
