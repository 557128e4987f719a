import { DownOutlined, RightOutlined } from '@ant-design/icons';
import type { MisconfigGroup } from '@soc/contracts';
import { Alert, Button, Card, Flex, List, Skeleton, theme, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { pageItems } from '@/shared/lib/pageItems.ts';
import { useMisconfigsInfiniteQuery } from '../api/useMisconfigsInfiniteQuery.ts';
import { MisconfigStatusTag, SeverityTag } from './MisconfigTags.tsx';
import '../i18n/texts.ts';

export type MisconfigGroupCardProps = {
  group: MisconfigGroup;
  /** The list's filters: a group's items are the list filtered by them and its title. */
  filters: URLSearchParams;
  expanded: boolean;
  onToggle: (title: string) => void;
  selected: number | null;
  onSelect: (id: number) => void;
  position: number;
  setSize: number;
};

/**
 * One recommendation found on many assets: its severity, title, status counts and a sample of
 * the assets; opened, it lists its findings (one per system and finding), each selectable for
 * the side panel where it is fixed or its risk accepted.
 */
export function MisconfigGroupCard(props: MisconfigGroupCardProps) {
  const { group: g, expanded, onToggle, position, setSize } = props;
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const more = g.assets - g.asset_sample.length;
  const counts = (['open', 'accepted_risk', 'fixed'] as const)
    .filter((status) => g[status] > 0)
    .map((status) =>
      t('misconfigs.groups.statusCount', { count: g[status], status: t(`misconfigs.statuses.${status}`) }),
    )
    .join(' · ');
  return (
    <Card
      size="small"
      role="article"
      aria-posinset={position}
      aria-setsize={setSize}
      data-testid="misconfig-group"
      data-title={g.title}
      data-expanded={expanded}
      styles={{ body: { padding: token.paddingSM } }}
    >
      <Flex vertical gap={token.marginXXS}>
        <Flex align="center" gap="small">
          <Button
            type="text"
            size="small"
            icon={expanded ? <DownOutlined aria-hidden /> : <RightOutlined aria-hidden />}
            aria-expanded={expanded}
            aria-label={expanded ? t('misconfigs.groups.collapse') : t('misconfigs.groups.expand')}
            onClick={() => onToggle(g.title)}
            data-testid="misconfig-group-toggle"
          />
          <SeverityTag severity={g.severity} />
          <Typography.Link strong onClick={() => onToggle(g.title)} data-testid="misconfig-group-title">
            {g.title}
          </Typography.Link>
          <Typography.Text
            type="secondary"
            style={{ marginInlineStart: 'auto' }}
            data-testid="misconfig-group-counts"
          >
            {counts}
          </Typography.Text>
        </Flex>
        <Typography.Text type="secondary" data-testid="misconfig-group-assets">
          {g.assets === 0
            ? t('misconfigs.groups.noAssets')
            : t('misconfigs.groups.assets', {
                count: g.assets,
                assets:
                  g.asset_sample.join(', ') +
                  (more > 0 ? ` ${t('misconfigs.groups.andMore', { count: more })}` : ''),
              })}
        </Typography.Text>
        {expanded && <GroupItems {...props} />}
      </Flex>
    </Card>
  );
}

/** The findings of an opened group, a page at a time. */
function GroupItems({ group, filters, selected, onSelect }: MisconfigGroupCardProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const params = useMemo(() => {
    const next = new URLSearchParams(filters);
    next.set('title', group.title);
    return next;
  }, [filters, group.title]);
  const query = useMisconfigsInfiniteQuery(params);
  const items = useMemo(() => pageItems(query.data?.pages, (m) => m.id), [query.data]);
  if (query.isPending) return <Skeleton active paragraph={{ rows: 2 }} title={false} />;
  if (query.isError && items.length === 0)
    return (
      <Alert
        type="error"
        showIcon
        title={t('misconfigs.list.loadFailed')}
        action={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
      />
    );
  return (
    <Flex vertical gap="small" data-testid="misconfig-group-items">
      <List
        size="small"
        bordered
        dataSource={items}
        renderItem={(m) => (
          <List.Item
            onClick={() => onSelect(m.id)}
            style={{
              cursor: 'pointer',
              background: m.id === selected ? token.controlItemBgActive : undefined,
            }}
            data-testid="misconfig-card"
            data-id={m.id}
            data-selected={m.id === selected}
            aria-current={m.id === selected ? 'true' : undefined}
          >
            <Flex gap="small" align="center" wrap style={{ width: '100%' }}>
              <MisconfigStatusTag status={m.status} />
              <Typography.Link
                onClick={(event) => {
                  event.stopPropagation();
                  onSelect(m.id);
                }}
                data-testid="misconfig-title"
              >
                {m.affected_assets.length ? m.affected_assets.join(', ') : t('misconfigs.groups.noAssets')}
              </Typography.Link>
              <Typography.Text type="secondary" style={{ marginInlineStart: 'auto' }}>
                {m.system.is_id}
              </Typography.Text>
            </Flex>
          </List.Item>
        )}
      />
      {query.hasNextPage && (
        <Button
          loading={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
          data-testid="misconfig-group-more"
        >
          {t('misconfigs.groups.showMore')}
        </Button>
      )}
    </Flex>
  );
}
