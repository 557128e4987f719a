import { SearchOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import { useState } from 'react';

export type SearchBoxProps = {
  /** The applied search text (from the URL). */
  value: string;
  /** Applies a search; the text is trimmed, empty removes the search. */
  onSearch: (text: string) => void;
  placeholder: string;
  label: string;
  buttonText: string;
  /** Test ids are `{testId}-input` and `{testId}-button`. */
  testId: string;
  width: string;
  /** Deleting all the text drops the search at once (not only the clear button). */
  clearsWhenEmptied?: boolean;
};

/** Search box with a search button; Enter searches too, and the clear button drops the search. */
export function SearchBox({
  value,
  onSearch,
  placeholder,
  label,
  buttonText,
  testId,
  width,
  clearsWhenEmptied = false,
}: SearchBoxProps) {
  // What the user is typing; null while it equals the applied search, so that reset and
  // back/forward (which change `value`) show up in the box.
  const [draft, setDraft] = useState<string | null>(null);
  const submit = () => {
    const text = (draft ?? value).trim();
    setDraft(null);
    onSearch(text);
  };
  return (
    <Space.Compact role="search" style={{ width, maxWidth: '100%' }}>
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
  );
}
