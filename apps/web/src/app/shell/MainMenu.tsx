import { Menu, theme, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useIsStaff } from '../../features/auth/index.ts';

/** Paths of the menu entries (product §A2). */
export const MENU_PATHS = {
  dashboard: '/dashboard',
  incidents: '/incidents',
  alerts: '/alerts',
  misconfigs: '/misconfigs',
  tasks: '/issues/issues/task',
  tenants: '/tenants',
  logSources: '/log-sources',
  reports: '/reports',
  docs: '/docs',
  assets: '/cmdb/assets',
  /** The staff area (design §9), shown to provider staff only: its triage queue… */
  socQueue: '/soc/queue',
  /** …and its mail quarantine. */
  socMail: '/soc/mail',
} as const;

/** The key of the staff area's submenu (design §9). */
export const SOC_MENU_KEY = 'soc';
/** Where the staff area's own addresses lead when they name no screen (/soc). */
export const SOC_HOME = MENU_PATHS.socQueue;

/** The menu entry a path belongs to (an incident page belongs to Incidents, and so on). */
export function menuKeyForPath(pathname: string): string | null {
  if (pathname.startsWith('/inc/')) return MENU_PATHS.incidents;
  if (pathname.startsWith('/issues/')) return MENU_PATHS.tasks;
  if (/^\/(instruction|responseInstruction|article)\//.test(pathname)) return MENU_PATHS.docs;
  // the staff area: the quarantine's addresses are its own, every other one (/soc, what the
  // queue opens) belongs to the queue
  if (pathname === '/soc' || pathname.startsWith('/soc/')) {
    return pathname === MENU_PATHS.socMail || pathname.startsWith(`${MENU_PATHS.socMail}/`)
      ? MENU_PATHS.socMail
      : MENU_PATHS.socQueue;
  }
  const entry = Object.values(MENU_PATHS).find(
    (path) => pathname === path || pathname.startsWith(`${path}/`),
  );
  return entry ?? null;
}

/** Keeps header popups inside the header landmark (screen-reader navigation, axe `region`). */
export const popupInHeader = (node: HTMLElement): HTMLElement => node.closest('header') ?? document.body;

export type MainMenuProps = {
  /** `horizontal` in the desktop header, `inline` in the phone drawer (every entry shown). */
  mode?: 'horizontal' | 'inline';
};

/**
 * The top menu: the same entries for every customer (product §A2, §A6); provider staff also get
 * the SOC entry of their own area (design §9).
 */
export function MainMenu({ mode = 'horizontal' }: MainMenuProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { pathname } = useLocation();
  const selected = menuKeyForPath(pathname);
  const isStaff = useIsStaff() === true;

  const link = (path: string, label: string) => ({ key: path, label: <Link to={path}>{label}</Link> });
  const items: MenuProps['items'] = [
    link(MENU_PATHS.dashboard, t('menu.dashboard')),
    {
      key: 'issues',
      label: t('menu.issues'),
      children: [
        link(MENU_PATHS.incidents, t('menu.incidents')),
        link(MENU_PATHS.alerts, t('menu.alerts')),
        link(MENU_PATHS.misconfigs, t('menu.misconfigs')),
        link(MENU_PATHS.tasks, t('menu.tasks')),
      ],
    },
    link(MENU_PATHS.tenants, t('menu.tenants')),
    link(MENU_PATHS.logSources, t('menu.logSources')),
    link(MENU_PATHS.reports, t('menu.reports')),
    // The entry stands for the whole hub; it opens the instructions tab (product §B2).
    { key: MENU_PATHS.docs, label: <Link to={`${MENU_PATHS.docs}/instructions`}>{t('menu.docs')}</Link> },
    {
      key: MENU_PATHS.assets,
      label: (
        <Link to={MENU_PATHS.assets}>
          {t('menu.assets')}
          {/* styled like antd's default Tag, which the shell need not load for one label (issue 14) */}
          <span
            data-testid="assets-beta"
            style={{
              display: 'inline-block',
              marginInlineStart: token.marginXS,
              paddingInline: token.paddingXS - token.lineWidth,
              fontSize: token.fontSizeSM,
              lineHeight: `${token.fontSizeSM * token.lineHeightSM}px`,
              whiteSpace: 'nowrap',
              color: token.colorText,
              background: token.colorFillQuaternary,
              border: `${token.lineWidth}px ${token.lineType} ${token.colorBorder}`,
              borderRadius: token.borderRadiusSM,
            }}
          >
            {t('menu.beta')}
          </span>
        </Link>
      ),
    },
    ...(isStaff
      ? [
          {
            key: SOC_MENU_KEY,
            label: t('menu.soc'),
            children: [
              link(MENU_PATHS.socQueue, t('menu.socQueue')),
              link(MENU_PATHS.socMail, t('menu.socMail')),
            ],
          },
        ]
      : []),
  ];

  return (
    <nav aria-label={t('menu.label')} data-testid="main-menu" style={{ flex: 1, minWidth: 0 }}>
      {mode === 'horizontal' ? (
        <Menu
          mode="horizontal"
          items={items}
          selectedKeys={selected ? [selected] : []}
          getPopupContainer={popupInHeader}
          style={{
            borderBottom: 'none',
            background: 'transparent',
            lineHeight: `${token.controlHeightLG}px`,
          }}
        />
      ) : (
        <Menu
          mode="inline"
          items={items}
          selectedKeys={selected ? [selected] : []}
          // a phone has no hover: the Issues and SOC entries are shown, not folded away
          defaultOpenKeys={['issues', SOC_MENU_KEY]}
          style={{ borderInlineEnd: 'none', background: 'transparent' }}
        />
      )}
    </nav>
  );
}
