import type { IncidentCard } from '@soc/contracts';
import { Empty, Flex, List, Tabs, theme, Typography, type TabsProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { IncidentStatusTag } from '@/shared/ui/IncidentStatusTag.tsx';
import { useIncidentAlertsQuery } from '../../alerts/index.ts';
import { AlertsTab } from '../../alerts/index.ts';
import { useIsStaff } from '../../auth/index.ts';
import { AssetsTab } from './AssetsTab.tsx';
import { IocsTab } from './IocsTab.tsx';
import { MisconfigsTab } from './MisconfigsTab.tsx';
import { StaffAddAlert } from './StaffAddAlert.tsx';
import { CollapsibleHtml } from './CollapsibleHtml.tsx';
import { CountBadge } from '@/shared/ui/CountBadge.tsx';
import { resolutionText } from '../lib/resolution.ts';
import '../i18n/texts.ts';

export type IncidentTabsProps = {
  incident: IncidentCard;
};

/** The query parameter holding the selected tab, so that a reload or a shared link shows it. */
export const INCIDENT_TAB_PARAM = 'tab';
const DEFAULT_TAB = 'details';

/** Issue types whose text is an answer rather than an incident description. */
const FAQ_ISSUE_TYPES = new Set(['information']);

/**
 * The centre of the incident page (product §A2): details (description or FAQ, resolution,
 * recommendations), CMDB assets, alerts, identified IOCs (disabled when none),
 * misconfigurations (Remediation only) and relations. The alerts tab is disabled while the
 * incident has no alerts (its count comes from the first alert page, shared with the tab).
 * The selected tab lives in the URL (`?tab=alerts`).
 */
export function IncidentTabs({ incident }: IncidentTabsProps) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const isRemediation = incident.issuetype_ref.code === 'remediation';
  const alerts = useIncidentAlertsQuery(incident.key, '');
  const alertCount = alerts.data?.pages[0]?.total ?? 0;
  const [searchParams, setSearchParams] = useSearchParams();
  // staff may add the first alert or IOC: their tabs stay open while empty
  const isStaff = useIsStaff() === true;

  const items = [
    { key: 'details', label: t('incidentPage.tabs.details'), children: <DetailsTab incident={incident} /> },
    {
      key: 'assets',
      label: t('incidentPage.tabs.assets'),
      children: <AssetsTab incidentKey={incident.key} />,
    },
    {
      key: 'alerts',
      label: (
        <Flex align="center" gap="small">
          {t('incidentPage.tabs.alerts')}
          {alertCount > 0 && <CountBadge count={alertCount} size="small" />}
        </Flex>
      ),
      disabled: alertCount === 0 && !isStaff,
      children: isStaff ? (
        <Flex vertical gap="middle">
          <StaffAddAlert incidentKey={incident.key} />
          <AlertsTab incidentKey={incident.key} />
        </Flex>
      ) : (
        <AlertsTab incidentKey={incident.key} />
      ),
    },
    {
      key: 'iocs',
      label: (
        <Flex align="center" gap="small">
          {t('incidentPage.tabs.iocs')}
          {incident.observed_iocs.length > 0 && (
            <CountBadge count={incident.observed_iocs.length} size="small" />
          )}
        </Flex>
      ),
      disabled: incident.observed_iocs.length === 0 && !isStaff,
      children: (
        <IocsTab iocs={incident.observed_iocs} staffIncidentKey={isStaff ? incident.key : undefined} />
      ),
    },
    ...(isRemediation
      ? [
          {
            key: 'misconfigs',
            label: t('incidentPage.tabs.misconfigs'),
            children: <MisconfigsTab incidentKey={incident.key} />,
          },
        ]
      : []),
    {
      key: 'relations',
      label: t('incidentPage.tabs.relations'),
      children: <RelationsTab incident={incident} />,
    },
  ];

  // The tab in the URL if the incident has it; the alerts tab counts as available until its
  // count has loaded, so that a reload on it does not fall back to the details.
  const requested = items.find((item) => item.key === searchParams.get(INCIDENT_TAB_PARAM));
  const available = requested && (!requested.disabled || (requested.key === 'alerts' && alerts.isPending));
  const activeKey = available ? requested.key : DEFAULT_TAB;
  const selectTab = (key: string) => {
    const next = new URLSearchParams(searchParams);
    if (key === DEFAULT_TAB) next.delete(INCIDENT_TAB_PARAM);
    else next.set(INCIDENT_TAB_PARAM, key);
    setSearchParams(next, { replace: true });
  };

  const labelled = items.map((item) => ({
    ...item,
    label: <span data-testid={`incident-tab-${item.key}`}>{item.label}</span>,
  }));
  return (
    <Tabs
      aria-label={t('incidentPage.tabs.label')}
      data-testid="incident-tabs"
      activeKey={activeKey}
      onChange={selectTab}
      items={labelled}
      renderTabBar={
        isPhone
          ? (props) => <WrappingTabBar {...props} items={labelled} label={t('incidentPage.tabs.label')} />
          : undefined
      }
    />
  );
}

type TabBarProps = Parameters<NonNullable<TabsProps['renderTabBar']>>[0];
type WrappingTabBarProps = Pick<TabBarProps, 'id' | 'activeKey' | 'onTabClick'> & {
  items: readonly { key: string; label: ReactNode; disabled?: boolean }[];
  label: string;
};

/**
 * The tabs of a phone: they wrap onto further lines. antd's bar would fold the ones that do not
 * fit into a "more" button inside the tablist, which is not a tab (axe: aria-required-children),
 * and hide them from a glance. The ids are antd's, so the panels stay labelled by their tabs.
 */
function WrappingTabBar({ id, activeKey, onTabClick, items, label }: WrappingTabBarProps) {
  const { token } = theme.useToken();
  return (
    <div
      role="tablist"
      aria-label={label}
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        columnGap: token.marginMD,
        marginBlockEnd: token.margin,
        borderBlockEnd: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
      }}
    >
      {items.map((item) => {
        const selected = item.key === activeKey;
        return (
          <button
            key={item.key}
            type="button"
            role="tab"
            id={`${id}-tab-${item.key}`}
            aria-controls={`${id}-panel-${item.key}`}
            aria-selected={selected}
            disabled={item.disabled}
            onClick={(event) => onTabClick(item.key, event)}
            style={{
              paddingBlock: token.paddingXS,
              paddingInline: 0,
              border: 'none',
              borderBlockEnd: `${token.lineWidthBold}px solid ${selected ? token.colorPrimary : 'transparent'}`,
              background: 'none',
              font: 'inherit',
              // colorLink: the primary shade the theme keeps readable as text
              color: item.disabled ? token.colorTextDisabled : selected ? token.colorLink : token.colorText,
              cursor: item.disabled ? 'not-allowed' : 'pointer',
            }}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section>
      <Typography.Title level={3} style={{ fontSize: 'inherit', marginTop: 0 }}>
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}

function DetailsTab({ incident }: IncidentTabsProps) {
  const { t, i18n } = useTranslation();
  const isFaq = FAQ_ISSUE_TYPES.has(incident.issuetype_ref.code);
  const resolution = resolutionText(incident, t, i18n.language);

  return (
    <Flex vertical gap="large" data-testid="incident-details">
      <Section title={isFaq ? t('incidentPage.details.faq') : t('incidentPage.details.description')}>
        {incident.rendered_description ? (
          <CollapsibleHtml html={incident.rendered_description} testId="incident-description" />
        ) : (
          <Typography.Text type="secondary">{t('incidentPage.details.noDescription')}</Typography.Text>
        )}
      </Section>
      <Section title={t('incidentPage.details.resolution')}>
        {resolution || incident.status_description ? (
          <Flex vertical gap="small" data-testid="incident-resolution">
            {resolution && <Typography.Text strong>{resolution}</Typography.Text>}
            {incident.status_description && (
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
                {incident.status_description}
              </Typography.Paragraph>
            )}
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('incidentPage.details.noResolution')}</Typography.Text>
        )}
      </Section>
      <Section title={t('incidentPage.details.recommendations')}>
        {incident.rendered_recommendations ? (
          <CollapsibleHtml html={incident.rendered_recommendations} testId="incident-recommendations" />
        ) : (
          <Typography.Text type="secondary">{t('incidentPage.details.noRecommendations')}</Typography.Text>
        )}
      </Section>
    </Flex>
  );
}

function RelationsTab({ incident }: IncidentTabsProps) {
  const { t, i18n } = useTranslation();
  if (incident.related_incidents.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('incidentPage.tabs.noRelations')} />;
  }
  return (
    <List
      size="small"
      data-testid="incident-relations"
      dataSource={incident.related_incidents}
      renderItem={(related) => (
        <List.Item>
          <Flex gap="small" align="center" wrap style={{ width: '100%' }}>
            <Link to={`/inc/${related.key}`}>{related.key}</Link>
            <Typography.Text style={{ flex: 1 }}>{related.summary}</Typography.Text>
            <IncidentStatusTag status={related.status} />
            <Typography.Text type="secondary">
              {formatDateTime(related.created, i18n.language)}
            </Typography.Text>
          </Flex>
        </List.Item>
      )}
    />
  );
}
