import type { InboxItem, Language } from '@soc/contracts';
import { INCIDENT_STATUS_TITLES, taskPath } from '@soc/contracts';
import { Alert, Button, Drawer, Empty, Flex, Popover, Skeleton, Switch, Typography, theme } from 'antd';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { visuallyHidden } from '@/shared/ui/visuallyHidden.ts';
import { useInboxInfiniteQuery } from '../api/useInboxInfiniteQuery.ts';
import { useMarkInboxReadMutation } from '../api/useMarkInboxReadMutation.ts';
import { readUnreadOnly, writeUnreadOnly } from '../lib/unreadOnly.ts';
import '../i18n/texts.ts';

export type InboxPopoverProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The unread count the bell shows: "Mark all read" is offered while it is above 0. */
  unread: number;
  /** The bell. */
  children: ReactNode;
};

/** Where a line leads: the incident, the reports list, the request. */
const pathOf = (item: InboxItem): string => {
  if (item.incident) return `/inc/${item.incident.key}`;
  if (item.task) return taskPath(item.task);
  return '/reports/reportsList';
};

function useLineText() {
  const { t } = useTranslation();
  const language: Language = useLanguage();
  return (item: InboxItem): { title: string; detail: string } => {
    const key = item.incident?.key ?? 0;
    switch (item.kind) {
      case 'incident_created':
      case 'comment':
        return { title: t(`inbox.kind.${item.kind}`, { key }), detail: item.incident?.summary ?? '' };
      case 'status_changed': {
        const titles: Partial<Record<string, string>> = INCIDENT_STATUS_TITLES[language];
        const status = item.status === null ? undefined : titles[item.status];
        const title = status
          ? t('inbox.kind.status_changed', { key, status })
          : t('inbox.kind.status_changed_unknown', { key });
        return { title, detail: item.incident?.summary ?? '' };
      }
      case 'report_ready':
        return { title: t('inbox.kind.report_ready'), detail: item.report?.name ?? '' };
      case 'task_answer':
        return {
          title: t('inbox.kind.task_answer', { id: item.task?.id ?? 0 }),
          detail: item.task?.subject ?? '',
        };
    }
  };
}

/** The list of the panel: its loading, error, empty and filled states. */
function InboxList({
  onNavigate,
  unread,
  fullWidth = false,
}: {
  onNavigate: () => void;
  unread: number;
  /** In the phone's drawer: the screen's width rather than a popover's. */
  fullWidth?: boolean;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // "Unread only" is remembered like a list's filters: the panel opens as the user left it
  const [unreadOnly, setUnreadOnly] = useState(readUnreadOnly);
  const unreadOnlyId = useId();
  const query = useInboxInfiniteQuery(unreadOnly);
  const mark = useMarkInboxReadMutation();
  const lineText = useLineText();
  const items = query.data?.pages.flatMap((p) => p.results) ?? [];
  const newest = items[0]?.id;

  return (
    <Flex vertical style={{ width: fullWidth ? '100%' : 'min(24rem, 90vw)' }} data-testid="inbox-panel">
      <Flex align="center" justify="space-between" gap="small" style={{ paddingBottom: token.paddingXS }}>
        <Typography.Text strong>{t('inbox.title')}</Typography.Text>
        <Button
          size="small"
          type="link"
          disabled={unread === 0 || newest === undefined}
          loading={mark.isPending && !('id' in (mark.variables ?? {}))}
          onClick={() => newest !== undefined && mark.mutate({ upTo: newest })}
          data-testid="inbox-mark-all"
        >
          {t('inbox.markAllRead')}
        </Button>
      </Flex>
      <Flex align="center" gap="small" style={{ paddingBottom: token.paddingXS }}>
        <Switch
          id={unreadOnlyId}
          size="small"
          checked={unreadOnly}
          onChange={(checked) => {
            setUnreadOnly(checked);
            writeUnreadOnly(checked);
          }}
          data-testid="inbox-unread-only"
        />
        <label htmlFor={unreadOnlyId}>{t('inbox.unreadOnly')}</label>
      </Flex>
      {query.isPending && <Skeleton active paragraph={{ rows: 3 }} data-testid="inbox-loading" />}
      {query.isError && (
        <Alert
          type="error"
          showIcon
          title={t('inbox.loadFailed')}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              {t('common.retry')}
            </Button>
          }
          data-testid="inbox-error"
        />
      )}
      {query.isSuccess && items.length === 0 && (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t(unreadOnly ? 'inbox.emptyUnread' : 'inbox.empty')}
          data-testid="inbox-empty"
        />
      )}
      {items.length > 0 && (
        <Flex
          vertical
          role="list"
          style={{ maxHeight: 'min(28rem, 70vh)', overflowY: 'auto', marginInline: -token.paddingXS }}
        >
          {items.map((item) => {
            const { title, detail } = lineText(item);
            return (
              <Link
                key={item.id}
                role="listitem"
                to={pathOf(item)}
                onClick={() => {
                  if (!item.read) mark.mutate({ id: item.id });
                  onNavigate();
                }}
                data-testid="inbox-item"
                data-read={item.read}
                style={{
                  display: 'block',
                  padding: `${token.paddingXS}px ${token.paddingSM}px`,
                  borderRadius: token.borderRadius,
                  color: token.colorText,
                  background: item.read ? undefined : token.colorPrimaryBg,
                }}
              >
                <Flex justify="space-between" gap="small">
                  <span style={{ fontWeight: item.read ? undefined : token.fontWeightStrong }}>
                    {!item.read && <span style={visuallyHidden}>{`${t('inbox.unread')}: `}</span>}
                    {title}
                  </span>
                  <span style={{ color: token.colorTextTertiary, flex: 'none', fontSize: token.fontSizeSM }}>
                    {formatDateTime(item.created)}
                  </span>
                </Flex>
                {detail && (
                  <div
                    style={{
                      color: token.colorTextSecondary,
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                      whiteSpace: 'nowrap',
                    }}
                  >
                    {detail}
                  </div>
                )}
              </Link>
            );
          })}
          {query.hasNextPage && (
            <Button
              type="link"
              loading={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
              data-testid="inbox-more"
            >
              {t('inbox.loadMore')}
            </Button>
          )}
          {query.isFetchNextPageError && (
            <Typography.Text type="danger">{t('common.loadMoreFailed')}</Typography.Text>
          )}
        </Flex>
      )}
      <Flex justify="center" style={{ paddingTop: token.paddingXS }}>
        <Link to="/profile/notifications" onClick={onNavigate}>
          {t('inbox.settings')}
        </Link>
      </Flex>
    </Flex>
  );
}

/** The bell's panel (a chunk of its own): the newest notifications, a line each, linked. */
export function InboxPopover({ open, onOpenChange, unread, children }: InboxPopoverProps) {
  const isPhone = useIsPhone();
  const list = <InboxList unread={unread} onNavigate={() => onOpenChange(false)} fullWidth={isPhone} />;
  if (isPhone) {
    // a popover beside the bell would stick out of a phone's screen: the panel slides down full width
    return (
      <>
        <span onClick={() => onOpenChange(!open)}>{children}</span>
        <Drawer open={open} onClose={() => onOpenChange(false)} placement="top" size="auto" destroyOnHidden>
          {list}
        </Drawer>
      </>
    );
  }
  return (
    <Popover
      open={open}
      onOpenChange={onOpenChange}
      trigger="click"
      placement="bottomRight"
      destroyOnHidden
      content={list}
    >
      {children}
    </Popover>
  );
}
