import { REPORT_TABLE_MAX_WIDTH } from '@soc/contracts';
import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { ReportsListTab } from '../components/ReportsListTab.tsx';
import { SchedulesTab } from '../components/SchedulesTab.tsx';
import '../i18n/texts.ts';

const TABS = ['reportsList', 'reportShedules'] as const;
type ReportsTab = (typeof TABS)[number];
const isTab = (value: string | undefined): value is ReportsTab => TABS.includes(value as ReportsTab);

/**
 * /reports/{tab} (product §B2 Reports): reportsList (default) and reportShedules; an unknown tab
 * opens the dashboard. Content is at most 1694 pixels wide.
 */
export function ReportsPage() {
  const { t } = useTranslation();
  const { tab = 'reportsList' } = useParams();
  const navigate = useNavigate();
  useDocumentTitle(t('reports.title'));
  if (!isTab(tab)) return <Navigate to="/dashboard" replace />;
  return (
    <div style={{ maxWidth: REPORT_TABLE_MAX_WIDTH }} data-testid="reports-page" data-tab={tab}>
      {/* a page title like every other screen's (the list's heading sat in a collapsible panel) */}
      <Typography.Title level={1} style={{ marginTop: 0 }}>
        {t('reports.title')}
      </Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(key) => void navigate(`/reports/${key}`)}
        items={TABS.map((key) => ({
          key,
          label: t(`reports.tabs.${key}`),
          children: key === tab ? key === 'reportsList' ? <ReportsListTab /> : <SchedulesTab /> : null,
        }))}
      />
    </div>
  );
}
