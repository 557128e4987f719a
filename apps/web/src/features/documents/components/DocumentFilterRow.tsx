import { useTranslation } from 'react-i18next';
import { DateRangeFilter } from '@/shared/ui/filters/DateRangeFilter.tsx';
import { FilterField } from '@/shared/ui/filters/FilterField.tsx';
import { FilterRow } from '@/shared/ui/filters/FilterRow.tsx';
import { MultiSelectFilter } from '@/shared/ui/filters/MultiSelectFilter.tsx';
import { useDocumentChoicesQuery } from '../api/useDocumentChoicesQuery.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import {
  dateRangeChanges,
  readDate,
  readList,
  withParams,
  type DocumentParam,
  type DocumentParamValue,
} from '../lib/documentQuery.ts';
import '../i18n/texts.ts';

export type DocumentFilterRowProps = {
  view: DocumentKindView;
  /** The applied (sanitised) parameters. */
  params: URLSearchParams;
  onChange: (next: URLSearchParams) => void;
};

/**
 * Filters of a document list (product §B2, §B5): tags, sensors (instructions), created and
 * last-update ranges with the presets of product §B9. Multiselects apply on closing, only if
 * changed; a range covers whole days.
 */
export function DocumentFilterRow({ view, params, onChange }: DocumentFilterRowProps) {
  const { t } = useTranslation();
  const tags = useDocumentChoicesQuery(view, 'tags');
  const sensors = useDocumentChoicesQuery(view, 'sensors', view.hasSensors);
  const apply = (changes: Partial<Record<DocumentParam, DocumentParamValue>>) =>
    onChange(withParams(params, changes));
  const asOptions = (values: readonly string[] | undefined) =>
    values?.map((value) => ({ value, label: value }));

  return (
    <FilterRow label={t('docs.filters.label')} testId="documents-filter-row">
      <FilterField htmlFor="document-filter-tags" label={t('docs.filters.tags')}>
        <MultiSelectFilter
          id="document-filter-tags"
          testId="document-filter-tags"
          value={readList(params, 'tags__in')}
          loading={tags.isPending}
          options={asOptions(tags.data)}
          onApply={(values) => apply({ tags__in: values })}
        />
      </FilterField>
      {view.hasSensors && (
        <FilterField htmlFor="document-filter-sensors" label={t('docs.filters.sensors')}>
          <MultiSelectFilter
            id="document-filter-sensors"
            testId="document-filter-sensors"
            value={readList(params, 'sensors__in')}
            loading={sensors.isPending}
            options={asOptions(sensors.data)}
            onApply={(values) => apply({ sensors__in: values })}
          />
        </FilterField>
      )}
      <FilterField htmlFor="document-filter-created" label={t('docs.filters.created')}>
        <DateRangeFilter
          id="document-filter-created"
          testId="document-filter-created"
          from={readDate(params, 'created__gte')}
          to={readDate(params, 'created__lte')}
          onApply={(range) => apply(dateRangeChanges('created', range))}
        />
      </FilterField>
      <FilterField htmlFor="document-filter-updated" label={t('docs.filters.updated')}>
        <DateRangeFilter
          id="document-filter-updated"
          testId="document-filter-updated"
          from={readDate(params, 'updated__gte')}
          to={readDate(params, 'updated__lte')}
          onApply={(range) => apply(dateRangeChanges('updated', range))}
        />
      </FilterField>
    </FilterRow>
  );
}
