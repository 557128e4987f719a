import { BellOutlined } from '@ant-design/icons';
import { Button, theme } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CountBadge } from '@/shared/ui/CountBadge.tsx';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary.tsx';
import { useInboxCountQuery } from '../api/useInboxCountQuery.ts';
import { loadInboxPanel } from '../routes.ts';

/** The panel, its list and texts load with the first click, not with the shell. */
const InboxPopover = lazy(() => loadInboxPanel().then((m) => ({ default: m.InboxPopover })));

/**
 * The bell of the header (issue 40): the number of unread notifications ("99+" above 99), and on
 * a click the notification centre's panel. Refreshed by the live stream's `inbox.updated`.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const count = useInboxCountQuery();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const unread = count.data?.unread ?? 0;
  const more = count.data?.unread_exact === false;

  const bell = (
    <Button
      type="text"
      shape="circle"
      aria-label={
        more ? t('header.notificationsMore', { count: unread }) : t('header.notifications', { count: unread })
      }
      aria-haspopup="dialog"
      aria-expanded={open}
      onClick={() => {
        // the first click loads the panel and opens it; later ones are the popover's own
        if (!wanted) {
          setWanted(true);
          setOpen(true);
        }
      }}
      data-testid="inbox-bell"
      data-unread={unread}
      icon={
        <CountBadge count={unread} size="small" data-testid="inbox-badge">
          <BellOutlined aria-hidden style={{ fontSize: token.fontSizeLG }} />
        </CountBadge>
      }
    />
  );
  if (!wanted) return bell;
  return (
    // a panel that fails to load leaves the bell, not the header, without it
    <ErrorBoundary resetKey="inbox" fallback={bell}>
      <Suspense fallback={bell}>
        <InboxPopover open={open} onOpenChange={setOpen} unread={unread}>
          {bell}
        </InboxPopover>
      </Suspense>
    </ErrorBoundary>
  );
}
