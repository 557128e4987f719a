import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Flex, Menu, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { LanguageSwitch } from '@/shared/ui/LanguageSwitch.tsx';
import { ThemeSwitch } from '@/shared/ui/ThemeSwitch.tsx';
import { MainMenu } from './MainMenu.tsx';
import { useProfileMenu } from './ProfileMenu.tsx';

/** Id of the drawer's content, which the menu button controls. */
const MENU_ID = 'phone-menu';

/**
 * The phone layout's header menu (below 1024 px): a button that opens a drawer with every menu
 * entry and every header control (language, theme, the profile menu and sign-out), which do not
 * fit beside the brand. A chunk of its own: the desktop shell never loads it (nor the Drawer).
 */
export function PhoneMenu() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { pathname } = useLocation();
  const profile = useProfileMenu();
  const [open, setOpen] = useState(false);
  // a choice in the drawer navigates: the page it opens is what the user wants to see
  const [openedAt, setOpenedAt] = useState(pathname);
  if (openedAt !== pathname) {
    setOpenedAt(pathname);
    setOpen(false);
  }

  return (
    <>
      <Button
        type="text"
        icon={<MenuOutlined aria-hidden />}
        aria-label={t('header.openMenu')}
        aria-expanded={open}
        aria-controls={open ? MENU_ID : undefined}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid="phone-menu-button"
        style={{ marginInlineStart: 'auto' }}
      />
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        placement="right"
        // most of a phone's width, leaving a strip of the page to tap away
        size="min(22rem, 85vw)"
        title={t('header.menuTitle')}
        closable={{ 'aria-label': t('header.closeMenu') }}
        data-testid="phone-menu"
        styles={{ body: { padding: 0 } }}
      >
        <Flex vertical id={MENU_ID} style={{ minHeight: '100%' }}>
          <MainMenu mode="inline" />
          <Flex
            align="center"
            justify="space-between"
            gap="middle"
            wrap
            data-testid="phone-menu-controls"
            style={{
              padding: token.padding,
              borderBlock: `${token.lineWidth}px ${token.lineType} ${token.colorSplit}`,
            }}
          >
            <LanguageSwitch />
            <Flex align="center" gap="small">
              <span style={{ color: token.colorText }} aria-hidden>
                {t('header.darkTheme')}
              </span>
              <ThemeSwitch />
            </Flex>
          </Flex>
          {profile && (
            <section aria-label={t('header.profile', { name: profile.name })} data-testid="phone-profile">
              <div style={{ paddingBlock: token.paddingSM, paddingInline: token.padding }}>
                <span
                  data-testid="profile-fullname"
                  style={{ display: 'block', color: token.colorText, fontWeight: token.fontWeightStrong }}
                >
                  {profile.name}
                </span>
                <span data-testid="profile-username" style={{ color: token.colorTextSecondary }}>
                  {profile.user.username}
                </span>
              </div>
              <Menu
                mode="inline"
                selectable={false}
                items={profile.items}
                onClick={profile.onClick}
                style={{ borderInlineEnd: 'none', background: 'transparent' }}
              />
            </section>
          )}
        </Flex>
      </Drawer>
    </>
  );
}
