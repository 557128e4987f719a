import { SearchOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export type DocumentSearchProps = {
  /** The applied search text (from the URL). */
  value: string;
  /** Applies a search; the text is trimmed, empty removes the search. */
  onSearch: (text: string) => void;
};

/** Search box with a Search button; Enter searches too, and clearing the text re-runs the search. */
export function DocumentSearch({ value, onSearch }: DocumentSearchProps) {
  const { t } = useTranslation();
  // What the user is typing; null while it equals the applied search.
  const [draft, setDraft] = useState<string | null>(null);
  const submit = () => {
    const text = (draft ?? value).trim();
    setDraft(null);
    onSearch(text);
  };
  return (
    <Space.Compact role="search" style={{ width: '26rem', maxWidth: '100%' }}>
      <Input
        value={draft ?? value}
        onChange={(event) => {
          const text = event.target.value;
          // The clear button (a click, not a change) and deleting all text both drop the search.
          if (event.type !== 'change' || text === '') {
            setDraft(null);
            onSearch('');
          } else setDraft(text);
        }}
        onPressEnter={submit}
        placeholder={t('docs.search.placeholder')}
        aria-label={t('docs.search.label')}
        allowClear
        data-testid="documents-search-input"
      />
      <Button
        type="primary"
        icon={<SearchOutlined aria-hidden />}
        onClick={submit}
        data-testid="documents-search-button"
      >
        {t('docs.search.button')}
      </Button>
    </Space.Compact>
  );
}
