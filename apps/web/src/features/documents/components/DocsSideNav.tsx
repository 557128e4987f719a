import {
  AlertOutlined,
  FileTextOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  ReadOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { Button, Flex, Menu, Select, theme } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { DOCS_TABS, type DocsTab } from '../lib/documentKinds.ts';
import '../i18n/texts.ts';

const TAB_ICONS: Record<DocsTab, ReactNode> = {
  instructions: <FileTextOutlined aria-hidden />,
  responseInstructions: <AlertOutlined aria-hidden />,
  articles: <ReadOutlined aria-hidden />,
  rules: <SafetyCertificateOutlined aria-hidden />,
};

/** Width of the expanded panel, in multiples of the theme's control height. */
const PANEL_CONTROLS = 7;

export type DocsSideNavProps = {
  active: DocsTab;
};

/**
 * The hub's left panel: the four tabs with icons; it can be collapsed to the icons (product §B2).
 * On a phone, a select of the four above the list instead.
 */
export function DocsSideNav({ active }: DocsSideNavProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [collapsed, setCollapsed] = useState(false);
  const isPhone = useIsPhone();
  const navigate = useNavigate();

  if (isPhone) {
    return (
      <nav aria-label={t('docs.hub.label')} data-testid="docs-side-nav">
        <Select<DocsTab>
          value={active}
          onChange={(tab) => void navigate(`/docs/${tab}`)}
          aria-label={t('docs.hub.label')}
          style={{ width: '100%' }}
          options={DOCS_TABS.map((tab) => ({
            value: tab,
            label: (
              <Flex gap="small" data-testid={`docs-tab-${tab}`}>
                {TAB_ICONS[tab]}
                {t(`docs.tabs.${tab}`)}
              </Flex>
            ),
          }))}
        />
      </nav>
    );
  }

  return (
    <nav
      aria-label={t('docs.hub.label')}
      data-testid="docs-side-nav"
      data-collapsed={collapsed}
      style={{
        flex: 'none',
        width: collapsed ? undefined : token.controlHeight * PANEL_CONTROLS,
        alignSelf: 'flex-start',
        position: 'sticky',
        top: '5rem',
        borderRadius: token.borderRadiusLG,
        background: token.colorBgContainer,
        border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
      }}
    >
      <Flex justify={collapsed ? 'center' : 'flex-end'} style={{ padding: token.paddingXXS }}>
        <Button
          type="text"
          size="small"
          icon={collapsed ? <MenuUnfoldOutlined aria-hidden /> : <MenuFoldOutlined aria-hidden />}
          aria-label={collapsed ? t('docs.hub.expand') : t('docs.hub.collapse')}
          aria-expanded={!collapsed}
          onClick={() => setCollapsed((value) => !value)}
          data-testid="docs-side-nav-toggle"
        />
      </Flex>
      <Menu
        mode="inline"
        inlineCollapsed={collapsed}
        selectedKeys={[active]}
        style={{ borderInlineEnd: 'none', background: 'transparent' }}
        items={DOCS_TABS.map((tab) => ({
          key: tab,
          icon: TAB_ICONS[tab],
          label: (
            <Link to={`/docs/${tab}`} data-testid={`docs-tab-${tab}`}>
              {t(`docs.tabs.${tab}`)}
            </Link>
          ),
        }))}
      />
    </nav>
  );
}
