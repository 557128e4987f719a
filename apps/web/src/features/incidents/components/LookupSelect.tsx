import { Select } from 'antd';
import type { ReactNode } from 'react';

/** A chosen option of a lookup: its id and the label it was chosen with. */
export interface LookupValue {
  value: number;
  label: ReactNode;
}

/** An option offered by a lookup. */
export interface LookupOption {
  value: number;
  label: string;
}

type CommonProps = {
  /** Set by Form.Item, so that its label names the control. */
  id?: string;
  testId?: string;
  disabled?: boolean;
  placeholder?: string;
  /** The options of the current search (the caller debounces the search text). */
  options: readonly LookupOption[] | undefined;
  loading?: boolean;
  /** The typed search text; '' again when the dropdown closes. */
  onSearch: (text: string) => void;
  /** Values never offered (e.g. the main category among the additional ones). */
  exclude?: readonly number[];
};

export type LookupSelectProps = CommonProps &
  (
    | { mode?: undefined; value?: LookupValue | null; onChange?: (value: LookupValue | undefined) => void }
    | { mode: 'multiple'; value?: LookupValue[]; onChange?: (value: LookupValue[]) => void }
  );

/**
 * A Select over a server lookup (issue types, categories, systems): typed text goes to the
 * server instead of filtering locally, and chosen values keep their labels even when a later
 * search no longer returns them.
 */
export function LookupSelect(props: LookupSelectProps) {
  const { id, testId, disabled, placeholder, options, loading, onSearch, exclude } = props;
  const offered = (options ?? [])
    .filter((option) => !exclude?.includes(option.value))
    .map((option) => ({ value: option.value, label: option.label }));

  const common = {
    id,
    'data-testid': testId,
    disabled,
    placeholder,
    loading,
    labelInValue: true,
    allowClear: true,
    options: offered,
    showSearch: { filterOption: false, onSearch },
    onOpenChange: (open: boolean) => {
      if (!open) onSearch('');
    },
    style: { width: '100%' },
  } as const;

  if (props.mode === 'multiple') {
    return (
      <Select<LookupValue[]> {...common} mode="multiple" value={props.value} onChange={props.onChange} />
    );
  }
  return (
    <Select<LookupValue | undefined>
      {...common}
      value={props.value ?? undefined}
      onChange={(value) => props.onChange?.(value ?? undefined)}
    />
  );
}
