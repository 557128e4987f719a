import { Button, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n/texts.ts';

export type TextFilterDropdownProps = {
  /** The applied value (from the URL). */
  value: string;
  /** Applies a value; '' removes the filter. */
  onApply: (value: string) => void;
  close: () => void;
  label: string;
  testId: string;
};

/** A column's "contains" text filter: Enter or the button applies, reset removes it. */
export function TextFilterDropdown({ value, onApply, close, label, testId }: TextFilterDropdownProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  const apply = (text: string) => {
    const trimmed = text.trim();
    if (trimmed !== value) onApply(trimmed);
    close();
  };
  return (
    <Space direction="vertical" style={{ padding: 8 }} onKeyDown={(e) => e.stopPropagation()}>
      <Input
        autoFocus
        value={draft}
        aria-label={label}
        placeholder={t('tenants.list.filterPlaceholder')}
        onChange={(e) => setDraft(e.target.value)}
        onPressEnter={() => apply(draft)}
        data-testid={`${testId}-input`}
      />
      <Space>
        <Button type="primary" size="small" onClick={() => apply(draft)} data-testid={`${testId}-apply`}>
          {t('tenants.list.filterApply')}
        </Button>
        <Button
          size="small"
          onClick={() => {
            setDraft('');
            apply('');
          }}
        >
          {t('tenants.list.filterReset')}
        </Button>
      </Space>
    </Space>
  );
}
