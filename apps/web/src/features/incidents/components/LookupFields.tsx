import { useState } from 'react';
import { useDebouncedValue } from '@/shared/hooks/useDebouncedValue.ts';
import { useCategoriesLookupQuery } from '../api/useCategoriesLookupQuery.ts';
import { useIssueTypesLookupQuery } from '../api/useIssueTypesLookupQuery.ts';
import { useSystemsLookupQuery } from '@/shared/api/systems.ts';
import { LookupSelect, type LookupSelectProps } from './LookupSelect.tsx';

/** Omit over each member of a union (plain Omit would merge the single and multiple variants). */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Props of a lookup field: those of LookupSelect except what the field fetches itself. */
export type LookupFieldProps = DistributiveOmit<LookupSelectProps, 'options' | 'loading' | 'onSearch'>;

/** The search text of a lookup and its debounced value (product §A9: 300 ms). */
function useLookupSearch() {
  const [search, setSearch] = useState('');
  return { search: useDebouncedValue(search), setSearch };
}

/** Issue type picker (GET /soc/issue_types/). */
export function IssueTypeSelect(props: LookupFieldProps) {
  const { search, setSearch } = useLookupSearch();
  const query = useIssueTypesLookupQuery(search);
  return (
    <LookupSelect
      {...props}
      options={query.data?.map((type) => ({ value: type.id, label: type.title }))}
      loading={query.isFetching}
      onSearch={setSearch}
    />
  );
}

/** Tenant picker (GET /soc/systems/): `IS-0001 · Full name`. */
export function SystemSelect(props: LookupFieldProps) {
  const { search, setSearch } = useLookupSearch();
  const query = useSystemsLookupQuery(search);
  return (
    <LookupSelect
      {...props}
      options={query.data?.map((system) => ({
        value: system.id,
        label: `${system.is_id} · ${system.full_name}`,
      }))}
      loading={query.isFetching}
      onSearch={setSearch}
    />
  );
}

export type CategorySelectProps = LookupFieldProps & {
  /** Categories belong to an issue type; none is offered before one is chosen. */
  issueTypeId: number | null;
};

/** Category picker of one issue type (GET /soc/issues/{type}/categories/). */
export function CategorySelect({ issueTypeId, ...props }: CategorySelectProps) {
  const { search, setSearch } = useLookupSearch();
  const query = useCategoriesLookupQuery(issueTypeId, search);
  return (
    <LookupSelect
      {...(props as LookupSelectProps)}
      options={query.data?.map((category) => ({ value: category.id, label: category.title }))}
      loading={query.isFetching}
      onSearch={setSearch}
    />
  );
}
