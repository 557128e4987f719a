import { Select } from 'antd';
import { useRef, useState } from 'react';

/** An option of a multiselect filter; values travel as strings in the query string. */
export interface FilterOption {
  value: string;
  label: string;
}

export type MultiSelectFilterProps = {
  id: string;
  /** Accessible name, for a select without a visible label (FilterField gives one by its id). */
  label?: string;
  /** Test id of the Select. */
  testId?: string;
  /** The applied values (from the URL). */
  value: readonly string[];
  options?: readonly FilterOption[];
  /** `tags`: free text values (typed, Enter adds one) instead of a fixed option list. */
  mode?: 'multiple' | 'tags';
  loading?: boolean;
  placeholder?: string;
  /** Cleans a typed value; null drops it (tags mode). */
  normalize?: (value: string) => string | null;
  /** Called with the new values when they differ from the applied ones. */
  onApply: (values: string[]) => void;
};

const sameValues = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value) => b.includes(value));

/**
 * A multiselect that applies on closing, and only if its values changed (design §7): while
 * the dropdown is open, picks only change a draft. Removing a value or clearing all while it
 * is closed applies at once.
 */
export function MultiSelectFilter({
  id,
  label,
  testId,
  value,
  options,
  mode = 'multiple',
  loading,
  placeholder,
  normalize,
  onApply,
}: MultiSelectFilterProps) {
  // The draft lives in a ref as well: closing by blur can follow a change in the same event,
  // before a re-render would hand the new draft to the handlers.
  const draftRef = useRef<string[] | null>(null);
  const [draft, setDraft] = useState<string[] | null>(null);
  const updateDraft = (next: string[] | null) => {
    draftRef.current = next;
    setDraft(next);
  };

  const clean = (values: string[]): string[] => {
    const result: string[] = [];
    for (const raw of values) {
      const cleaned = normalize ? normalize(raw) : raw.trim();
      if (cleaned && !result.includes(cleaned)) result.push(cleaned);
    }
    return result;
  };

  const apply = (next: string[]) => {
    if (!sameValues(next, value)) onApply(next);
  };

  return (
    <Select<string[]>
      id={id}
      aria-label={label}
      data-testid={testId}
      mode={mode}
      value={draft ?? [...value]}
      options={options?.map((option) => ({ value: option.value, label: option.label }))}
      loading={loading}
      placeholder={placeholder}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      // A fixed count rather than "responsive": the row stays one line high without measuring.
      maxTagCount={2}
      tokenSeparators={mode === 'tags' ? [','] : undefined}
      style={{ width: '100%' }}
      onOpenChange={(open) => {
        if (open) {
          updateDraft([...value]);
          return;
        }
        const pending = draftRef.current;
        updateDraft(null);
        if (pending) apply(pending);
      }}
      onChange={(next) => {
        const cleaned = clean(next);
        if (draftRef.current !== null) updateDraft(cleaned);
        else apply(cleaned);
      }}
    />
  );
}

/**
 * The builder of a filter bar's multiselects (alerts, recommendations): `multi(key, label,
 * options)` is a MultiSelectFilter of the list parameter `key`, named by its placeholder, with the
 * ids `${prefix}-filter-${key}`, at least `minWidth` wide and growing with the line.
 */
export function multiFilterBuilder<Key extends string>(
  prefix: string,
  minWidth: string,
  read: (key: Key) => string[],
  apply: (key: Key, values: string[]) => void,
) {
  return (key: Key, label: string, options: FilterOption[]) => (
    <div style={{ minWidth, flex: `1 1 ${minWidth}` }}>
      <MultiSelectFilter
        id={`${prefix}-filter-${key}`}
        testId={`${prefix}-filter-${key}`}
        value={read(key)}
        options={options}
        label={label}
        placeholder={label}
        onApply={(values) => apply(key, values)}
      />
    </div>
  );
}
