import type { DocumentOrdering } from '@soc/contracts';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import '../i18n/texts.ts';

/** Sort options (product §B9: created, last update, title, each either way) with their labels. */
const SORT_OPTIONS = [
  ['-updated', 'updatedDesc'],
  ['updated', 'updatedAsc'],
  ['-created', 'createdDesc'],
  ['created', 'createdAsc'],
  ['title', 'titleAsc'],
  ['-title', 'titleDesc'],
] as const satisfies ReadonlyArray<readonly [DocumentOrdering, string]>;

export type DocumentSortControlProps = {
  value: DocumentOrdering;
  onChange: (ordering: DocumentOrdering) => void;
};

/** The sort order of a document list. */
export function DocumentSortControl({ value, onChange }: DocumentSortControlProps) {
  const { t } = useTranslation();
  return (
    <Select<DocumentOrdering>
      data-testid="documents-sort"
      aria-label={t('docs.toolbar.sort')}
      title={t('docs.toolbar.sort')}
      value={value}
      onChange={onChange}
      options={SORT_OPTIONS.map(([ordering, label]) => ({ value: ordering, label: t(`docs.sort.${label}`) }))}
      popupMatchSelectWidth={false}
      style={{ minWidth: '16rem' }}
    />
  );
}
