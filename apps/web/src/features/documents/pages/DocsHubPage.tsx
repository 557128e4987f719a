import { Flex } from 'antd';
import { Navigate, useParams } from 'react-router';
import { RulesView } from '../../rules/index.ts';
import { DocsSideNav } from '../components/DocsSideNav.tsx';
import { DOCUMENT_VIEWS, isDocsTab } from '../lib/documentKinds.ts';
import { DocumentListView } from './DocumentListView.tsx';

/**
 * /docs/{tab} (product §B2 "Documentation hub"): the collapsible left panel of the four tabs
 * and the list of the selected one. An unknown tab opens the dashboard. The rules tab shows
 * the rules view (issue 9).
 */
export function DocsHubPage() {
  const { tab } = useParams();
  if (!isDocsTab(tab)) return <Navigate to="/dashboard" replace />;
  return (
    <Flex gap="middle" align="stretch" data-testid="docs-hub" data-tab={tab}>
      <DocsSideNav active={tab} />
      <div style={{ flex: '1 1 0', minWidth: 0 }}>
        {tab === 'rules' ? <RulesView /> : <DocumentListView key={tab} view={DOCUMENT_VIEWS[tab]} />}
      </div>
    </Flex>
  );
}
