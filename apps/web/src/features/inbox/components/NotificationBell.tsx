import { BellOutlined } from '@ant-design/icons';
import { BADGE_CAP } from '@soc/contracts';
import { Button, theme } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary.tsx';
import { useInboxCountQuery } from '../api/useInboxCountQuery.ts';
import { loadInboxPanel } from '../routes.ts';

/** The panel, its list and texts load with the first click, not with the shell. */
const InboxPopover = lazy(() => loadInboxPanel().then((m) => ({ default: m.InboxPopover })));

/**
 * The number on the bell, "99+" above BADGE_CAP like every count badge (CountBadge). Drawn here
 * rather than by antd's Badge, which would add 4 KB to the start-up code for one number.
 */
function UnreadMark({ count }: { count: number }) {
  const { token } = theme.useToken();
  if (count <= 0) return null;
  return (
    <span
      aria-hidden
      data-testid="inbox-badge"
      style={{
        position: 'absolute',
        insetBlockStart: -token.paddingXS,
        insetInlineStart: token.fontSizeLG - token.paddingXS,
        minWidth: token.controlHeightXS,
        height: token.controlHeightXS,
        paddingInline: token.paddingXXS,
        borderRadius: token.controlHeightXS / 2,
        background: token.colorError,
        color: token.colorTextLightSolid,
        boxShadow: `0 0 0 ${token.lineWidth}px ${token.colorBgContainer}`,
        fontSize: token.fontSizeSM,
        lineHeight: `${token.controlHeightXS}px`,
        textAlign: 'center',
      }}
    >
      {count > BADGE_CAP ? `${BADGE_CAP}+` : count}
    </span>
  );
}

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
        <span style={{ position: 'relative', display: 'inline-flex' }}>
          <BellOutlined aria-hidden style={{ fontSize: token.fontSizeLG }} />
          <UnreadMark count={unread} />
        </span>
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
