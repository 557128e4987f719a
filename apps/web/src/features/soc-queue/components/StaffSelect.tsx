import type { UserRef } from '@soc/contracts';
import { Select } from 'antd';
import { useRef, useState } from 'react';
import { useDebouncedValue } from '@/shared/hooks/useDebouncedValue.ts';
import { useStaffLookupQuery } from '../api/useStaffLookupQuery.ts';

/** What a staff user is called in pickers. */
export const staffLabel = (user: UserRef): string => user.full_name || user.username;

type CommonProps = {
  label: string;
  testId: string;
  placeholder?: string;
};

export type StaffMultiSelectProps = CommonProps & {
  /** The applied user ids (from the URL). */
  value: readonly string[];
  /** Called on closing, with the new ids when they differ from the applied ones (design §7). */
  onApply: (ids: string[]) => void;
};

/** The staff suggested for `search` (debounced), and the names of those seen so far by id. */
function useStaffOptions() {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search);
  const staff = useStaffLookupQuery(debounced);
  // a picked user stays named after the search that found them has changed
  const names = useRef(new Map<string, string>());
  for (const user of staff.data ?? []) names.current.set(String(user.id), staffLabel(user));
  const options = (staff.data ?? []).map((user) => ({ value: String(user.id), label: staffLabel(user) }));
  const labelOf = (id: string) => names.current.get(id) ?? `#${id}`;
  return { options, labelOf, setSearch, loading: staff.isFetching };
}

/** The SOC assignee filter: the provider's staff, searched on the server, applied on closing. */
export function StaffMultiSelect({ label, testId, placeholder, value, onApply }: StaffMultiSelectProps) {
  const { options, labelOf, setSearch, loading } = useStaffOptions();
  const draftRef = useRef<string[] | null>(null);
  const [draft, setDraft] = useState<string[] | null>(null);
  const updateDraft = (next: string[] | null) => {
    draftRef.current = next;
    setDraft(next);
  };
  const apply = (next: string[]) => {
    if (next.length !== value.length || next.some((id) => !value.includes(id))) onApply(next);
  };
  const current = draft ?? [...value];
  return (
    <Select<{ value: string; label: string }[]>
      mode="multiple"
      labelInValue
      aria-label={label}
      data-testid={testId}
      placeholder={placeholder ?? label}
      value={current.map((id) => ({ value: id, label: labelOf(id) }))}
      options={options}
      loading={loading}
      allowClear
      showSearch={{ filterOption: false, onSearch: setSearch }}
      maxTagCount={2}
      style={{ width: '100%' }}
      onOpenChange={(open) => {
        if (open) {
          updateDraft([...value]);
          return;
        }
        const pending = draftRef.current;
        updateDraft(null);
        setSearch('');
        if (pending) apply(pending);
      }}
      onChange={(next) => {
        const ids = next.map((item) => item.value);
        if (draftRef.current !== null) updateDraft(ids);
        else apply(ids);
      }}
    />
  );
}

export type StaffSingleSelectProps = CommonProps & {
  value: number | null;
  onChange: (id: number | null) => void;
};

/** One staff user (the bulk "Assign to…"), searched on the server. */
export function StaffSingleSelect({ label, testId, placeholder, value, onChange }: StaffSingleSelectProps) {
  const { options, labelOf, setSearch, loading } = useStaffOptions();
  return (
    <Select<{ value: string; label: string }>
      labelInValue
      aria-label={label}
      data-testid={testId}
      placeholder={placeholder ?? label}
      value={value === null ? undefined : { value: String(value), label: labelOf(String(value)) }}
      options={options}
      loading={loading}
      allowClear
      showSearch={{ filterOption: false, onSearch: setSearch }}
      style={{ width: '100%' }}
      onChange={(next) => onChange(next ? Number(next.value) : null)}
    />
  );
}
