import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { countFilterParams } from '@/shared/lib/filters.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { ListPage } from '@/shared/ui/ListPage.tsx';
import { StaffNotAvailable } from '@/shared/ui/staff/StaffNotAvailable.tsx';
import { useIsStaff } from '../../auth/index.ts';
import { useMailQuarantineQuery } from '../api/useMailQuarantineQueries.ts';
import { MailDetailPanel } from '../components/MailDetailPanel.tsx';
import { MailFilterBar } from '../components/MailFilterBar.tsx';
import { MailTable } from '../components/MailTable.tsx';
import { sanitizeMailParams, SOC_MAIL_FILTER_ENTITY } from '../lib/mailListQuery.ts';
import '../i18n/texts.ts';

const LIST_HEIGHT = 'max(24rem, calc(100vh - 15rem))';

/**
 * /soc/mail (design §9, staff area): replies to incident mail from senders the portal cannot
 * vouch for, kept for an analyst to release into the incident's chat or delete. A customer who
 * opens the address is told the page is not available, and the page asks the analyst API nothing.
 */
export function SocMailPage() {
  const isStaff = useIsStaff();
  if (isStaff === false) return <StaffNotAvailable />;
  if (isStaff === undefined) return null;
  return <MailScreen />;
}

function MailScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('socMail.title'));
  const persisted = usePersistedFilters(SOC_MAIL_FILTER_ENTITY);
  const params = useMemo(() => sanitizeMailParams(persisted.params), [persisted.params]);
  const filters = params.toString();
  // the page belongs to the filters it was picked under: new filters start at the first page
  const [paging, setPaging] = useState({ filters, page: 1 });
  const page = paging.filters === filters ? paging.page : 1;
  const query = useMailQuarantineQuery(params, page);
  const items = query.data?.results ?? [];
  const total = query.data?.total ?? 0;
  const [selectedId, setSelectedId] = useState<number | null>(null);

  return (
    <ListPage
      testId="soc-mail"
      title={t('socMail.title')}
      total={query.data ? t('socMail.total', { count: total }) : null}
      header={<MailFilterBar params={params} onChange={persisted.setParams} />}
      query={query}
      isEmpty={items.length === 0}
      loadFailedText={t('socMail.loadFailed')}
      emptyText={t('socMail.empty')}
      emptyFiltered={{
        search: params.get('sender'),
        filters: countFilterParams(params) - (params.has('sender') ? 1 : 0),
        onClear: () => persisted.setParams(new URLSearchParams()),
      }}
      panel={
        selectedId === null ? null : (
          <MailDetailPanel
            key={selectedId}
            id={selectedId}
            onClose={() => setSelectedId(null)}
            onDone={() => setSelectedId(null)}
          />
        )
      }
      onPanelClose={() => setSelectedId(null)}
      panelTitle={t('socMail.detail.title')}
      panelHint={t('socMail.selectHint')}
      height={LIST_HEIGHT}
    >
      <MailTable
        items={items}
        total={total}
        page={page}
        onPage={(next) => setPaging({ filters, page: next })}
        selectedId={selectedId}
        onOpen={setSelectedId}
        loading={query.isFetching && query.isPlaceholderData}
      />
    </ListPage>
  );
}
