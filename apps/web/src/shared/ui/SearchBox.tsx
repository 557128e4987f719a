import { SearchOutlined } from '@ant-design/icons';
import { SEARCH_MAX_LENGTH } from '@soc/contracts';
import { Button, Input, Space, theme } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

export type SearchBoxProps = {
  /** The applied search text (from the URL). */
  value: string;
  /** Applies a search; the text is trimmed, empty removes the search. */
  onSearch: (text: string) => void;
  placeholder: string;
  label: string;
  buttonText: string;
  /** Test ids are `{testId}-input`, `{testId}-button` and `{testId}-error`. */
  testId: string;
  width: string;
  /** Deleting all the text drops the search at once (not only the clear button). */
  clearsWhenEmptied?: boolean;
  /** The longest search the server accepts (trimmed); longer text is refused with a message. */
  maxLength?: number;
};

/**
 * Search box with a search button; Enter searches too, and the clear button drops the search.
 * Text longer than the server accepts is refused with a message under the box, as it is typed,
 * rather than sent and rejected or dropped.
 */
export function SearchBox({
  value,
  onSearch,
  placeholder,
  label,
  buttonText,
  testId,
  width,
  clearsWhenEmptied = false,
  maxLength = SEARCH_MAX_LENGTH,
}: SearchBoxProps) {
  const { t } = useTranslation();
  const errorId = useId();
  const { token } = theme.useToken();
  // What the user is typing; null while it equals the applied search, so that reset and
  // back/forward (which change `value`) show up in the box.
  const [draft, setDraft] = useState<string | null>(null);
  const tooLong = (draft ?? value).trim().length > maxLength;
  const submit = () => {
    const text = (draft ?? value).trim();
    if (text.length > maxLength) return;
    setDraft(null);
    onSearch(text);
  };
  return (
    // plain elements around the input: the list screens load this box before their first paint,
    // within the start-up bundle's budget (bundle.e2e.ts)
    <div role="search" style={{ display: 'flex', flexDirection: 'column', width, maxWidth: '100%' }}>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          value={draft ?? value}
          onChange={(event) => {
            const text = event.target.value;
            // The clear button sends a click, not a change.
            if (event.type !== 'change' || (clearsWhenEmptied && text === '')) {
              setDraft(null);
              onSearch('');
            } else setDraft(text);
          }}
          onPressEnter={submit}
          placeholder={placeholder}
          aria-label={label}
          aria-invalid={tooLong || undefined}
          aria-describedby={tooLong ? errorId : undefined}
          status={tooLong ? 'error' : undefined}
          allowClear
          data-testid={`${testId}-input`}
        />
        <Button
          type="primary"
          icon={<SearchOutlined aria-hidden />}
          onClick={submit}
          aria-label={buttonText}
          data-testid={`${testId}-button`}
        >
          {buttonText}
        </Button>
      </Space.Compact>
      {tooLong && (
        <div id={errorId} role="alert" style={{ color: token.colorError }} data-testid={`${testId}-error`}>
          {t('common.searchTooLong', { max: maxLength })}
        </div>
      )}
    </div>
  );
}
