import { Empty, Flex, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { useDocumentTitle } from '../../../shared/hooks/useDocumentTitle.ts';
import { DocsSideNav } from '../components/DocsSideNav.tsx';
import { DOCUMENT_VIEWS, isDocsTab } from '../lib/documentKinds.ts';
import { DocumentListView } from './DocumentListView.tsx';

/**
 * /docs/{tab} (spec 001 §2 "Documentation hub"): the collapsible left panel of the four tabs
 * and the list of the selected one. An unknown tab opens the dashboard. Rules arrive with the
 * rules release: their tab is present and shows a placeholder until then.
 */
export function DocsHubPage() {
  const { tab } = useParams();
  if (!isDocsTab(tab)) return <Navigate to="/dashboard" replace />;
  return (
    <Flex gap="middle" align="stretch" data-testid="docs-hub" data-tab={tab}>
      <DocsSideNav active={tab} />
      <div style={{ flex: '1 1 0', minWidth: 0 }}>
        {tab === 'rules' ? <RulesPlaceholder /> : <DocumentListView key={tab} view={DOCUMENT_VIEWS[tab]} />}
      </div>
    </Flex>
  );
}

/** The rules tab until the rules release delivers its list. */
function RulesPlaceholder() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  useDocumentTitle(t('docs.tabs.rules'));
  return (
    <Flex vertical gap="middle" data-testid="docs-rules-placeholder">
      <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading2 }}>
        {t('docs.tabs.rules')}
      </Typography.Title>
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={<Typography.Text type="secondary">{t('placeholder.notAvailable')}</Typography.Text>}
      />
    </Flex>
  );
}
