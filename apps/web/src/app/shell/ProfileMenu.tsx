import {
  AuditOutlined,
  BellOutlined,
  KeyOutlined,
  LogoutOutlined,
  SafetyOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, theme, type MenuProps } from 'antd';
import { cloneElement, isValidElement, type CSSProperties, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUserQuery } from '../../features/auth/index.ts';
import { useLogoutMutation } from '../../features/auth/index.ts';
import { fullName } from '../../features/auth/index.ts';
import { popupInHeader } from './MainMenu.tsx';

/**
 * What the profile menu offers the signed-in user (change password, notification settings,
 * audit log, IOC feed, webhooks, log out) and what a choice does: the header's dropdown and the
 * phone drawer (PhoneMenu.tsx) show the same entries. Null until the user is known.
 */
export function useProfileMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUserQuery().data;
  const logout = useLogoutMutation();
  if (!user) return null;
  const name = fullName(user);

  const items: MenuProps['items'] = [
    {
      key: 'change-password',
      icon: <KeyOutlined aria-hidden />,
      label: <span data-testid="profile-change-password">{t('profile.changePassword')}</span>,
    },
    {
      key: 'notifications',
      icon: <BellOutlined aria-hidden />,
      label: <span data-testid="profile-notifications">{t('settings.menu.notifications')}</span>,
    },
    {
      key: 'audit',
      icon: <AuditOutlined aria-hidden />,
      label: <span data-testid="profile-audit">{t('settings.menu.audit')}</span>,
    },
    {
      key: 'ioc-feed',
      icon: <SafetyOutlined aria-hidden />,
      label: <span data-testid="profile-ioc-feed">{t('settings.menu.iocFeed')}</span>,
    },
    // only for those who may manage them: customers of their systems, analysts of any
    ...(user.permissions.includes('webhooks.manage')
      ? [
          {
            // no icon: one more would push the start-up bundle over its budget
            key: 'webhooks',
            label: <span data-testid="profile-webhooks">{t('settings.menu.webhooks')}</span>,
          },
        ]
      : []),
    { type: 'divider' },
    {
      key: 'logout',
      icon: <LogoutOutlined aria-hidden />,
      label: <span data-testid="profile-logout">{t('profile.logout')}</span>,
    },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'change-password') void navigate('/changepassword');
    if (key === 'notifications') void navigate('/profile/notifications');
    if (key === 'audit') void navigate('/profile/audit');
    if (key === 'ioc-feed') void navigate('/profile/ioc-feed');
    if (key === 'webhooks') void navigate('/webhooks');
    if (key === 'logout') logout.mutate();
  };
  return { user, name, items, onClick, loggingOut: logout.isPending };
}

/** The profile dropdown of the desktop header: who is signed in, then the profile menu. */
export function ProfileMenu() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const profile = useProfileMenu();
  if (!profile) return null;
  const { user, name, items, onClick } = profile;

  const panelStyle: CSSProperties = {
    background: token.colorBgElevated,
    borderRadius: token.borderRadiusLG,
    boxShadow: token.boxShadowSecondary,
    minWidth: token.screenXS / 2,
  };

  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      getPopupContainer={popupInHeader}
      menu={{ items, onClick }}
      popupRender={(menu) => (
        <div style={panelStyle}>
          <div style={{ paddingBlock: token.paddingSM, paddingInline: token.padding }}>
            {/* plain spans: antd's Typography would pull its editor and tooltip into the shell */}
            <span style={{ display: 'block', color: token.colorText, fontWeight: token.fontWeightStrong }}>
              {name}
            </span>
            <span data-testid="profile-username" style={{ color: token.colorTextSecondary }}>
              {user.username}
            </span>
          </div>
          {/* antd's Divider look, without loading the component into the shell */}
          <div
            role="separator"
            style={{ borderBlockStart: `${token.lineWidth}px ${token.lineType} ${token.colorSplit}` }}
          />
          {isValidElement(menu)
            ? cloneElement(menu as ReactElement<{ style?: CSSProperties }>, { style: { boxShadow: 'none' } })
            : menu}
        </div>
      )}
    >
      <Button
        type="text"
        icon={<UserOutlined aria-hidden />}
        data-testid="profile-menu"
        aria-label={t('header.profile', { name })}
        loading={profile.loggingOut}
      >
        <span data-testid="profile-fullname">{name}</span>
      </Button>
    </Dropdown>
  );
}
