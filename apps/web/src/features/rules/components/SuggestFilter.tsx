import { Select } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '@/shared/hooks/useDebouncedValue.ts';
import '../i18n/texts.ts';

export type SuggestOption = { value: string; label: string };

export type SuggestFilterProps = {
  id: string;
  testId: string;
  /** The applied values (from the URL). */
  value: readonly string[];
  /** Options for the debounced search text; `labelOf` names applied values that are not among them. */
  useOptions: (text: string, open: boolean) => { options: SuggestOption[]; loading: boolean };
  labelOf?: (value: string) => string;
  onApply: (values: string[]) => void;
};

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v) => b.includes(v));

/**
 * A multiselect whose options come from the server for the typed text (debounced 300 ms, spec
 * 001 §9); like every multiselect filter it applies on closing, only if changed (design §7).
 */
export function SuggestFilter({ id, testId, value, useOptions, labelOf, onApply }: SuggestFilterProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(text.trim());
  const { options, loading } = useOptions(debounced, open);
  const draftRef = useRef<string[] | null>(null);
  const [draft, setDraft] = useState<string[] | null>(null);
  const update = (next: string[] | null) => {
    draftRef.current = next;
    setDraft(next);
  };
  const current = draft ?? [...value];
  const known = new Set(options.map((o) => o.value));
  const merged = [
    ...current.filter((v) => !known.has(v)).map((v) => ({ value: v, label: labelOf?.(v) ?? v })),
    ...options,
  ];
  return (
    <Select<string[]>
      id={id}
      data-testid={testId}
      mode="multiple"
      value={current}
      options={merged}
      loading={loading}
      allowClear
      showSearch={{ filterOption: false, onSearch: setText, searchValue: text }}
      notFoundContent={loading ? undefined : t('rules.filters.notFound')}
      maxTagCount={2}
      style={{ width: '100%' }}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          update([...value]);
          return;
        }
        const pending = draftRef.current;
        update(null);
        setText('');
        if (pending && !same(pending, value)) onApply(pending);
      }}
      onChange={(next) => {
        if (draftRef.current !== null) update(next);
        else if (!same(next, value)) onApply(next);
      }}
    />
  );
}
