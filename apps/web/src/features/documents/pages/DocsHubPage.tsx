import { Flex, Skeleton } from 'antd';
import { Suspense } from 'react';
import { Navigate, useParams } from 'react-router';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { lazyPage } from '@/shared/lib/chunkLoad.ts';
import { loadRulesView } from '../../rules/routes.ts';
import { DocsSideNav } from '../components/DocsSideNav.tsx';
import { DOCUMENT_VIEWS, isDocsTab } from '../lib/documentKinds.ts';
import { DocumentListView } from './DocumentListView.tsx';

/**
 * /docs/{tab} (product §B2 "Documentation hub"): the collapsible left panel of the four tabs
 * and the list of the selected one (on a phone a select above it). An unknown tab opens the dashboard. The rules tab shows
 * the rules view (issue 9).
 */
const RulesView = lazyPage(loadRulesView, 'RulesView');

export function DocsHubPage() {
  const { tab } = useParams();
  // a phone has the section select above the list, not a panel beside it
  const isPhone = useIsPhone();
  if (!isDocsTab(tab)) return <Navigate to="/dashboard" replace />;
  return (
    <Flex vertical={isPhone} gap="middle" align="stretch" data-testid="docs-hub" data-tab={tab}>
      <DocsSideNav active={tab} />
      <div style={{ flex: '1 1 0', minWidth: 0 }}>
        {tab === 'rules' ? (
          <Suspense fallback={<Skeleton active />}>
            <RulesView />
          </Suspense>
        ) : (
          <DocumentListView key={tab} view={DOCUMENT_VIEWS[tab]} />
        )}
      </div>
    </Flex>
  );
}
