import { SearchOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export type IncidentSearchProps = {
  /** The applied search text (from the URL). */
  value: string;
  /** Applies a search; the text is trimmed, empty removes the search. */
  onSearch: (text: string) => void;
};

/** Search box with a search button; Enter searches too. */
export function IncidentSearch({ value, onSearch }: IncidentSearchProps) {
  const { t } = useTranslation();
  // What the user is typing; null while it equals the applied search, so that reset and
  // back/forward (which change `value`) show up in the box.
  const [draft, setDraft] = useState<string | null>(null);
  const submit = () => {
    const text = (draft ?? value).trim();
    setDraft(null);
    onSearch(text);
  };
  return (
    <Space.Compact role="search" style={{ width: '28rem', maxWidth: '100%' }}>
      <Input
        value={draft ?? value}
        onChange={(event) => {
          // The clear button sends a click, not a change: clearing the box drops the search.
          if (event.type !== 'change') {
            setDraft(null);
            onSearch('');
          } else setDraft(event.target.value);
        }}
        onPressEnter={submit}
        placeholder={t('incidents.search.placeholder')}
        aria-label={t('incidents.search.label')}
        allowClear
        data-testid="incidents-search-input"
      />
      <Button
        type="primary"
        icon={<SearchOutlined aria-hidden />}
        onClick={submit}
        aria-label={t('incidents.search.button')}
        data-testid="incidents-search-button"
      >
        {t('incidents.search.button')}
      </Button>
    </Space.Compact>
  );
}
