import { MarkdownPreviewSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Input, Skeleton, Tabs, theme, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../../api/index.ts';
import { useDebouncedValue } from '../../hooks/useDebouncedValue.ts';
import './i18n/texts.ts';

export type MarkdownEditorProps = {
  /** Form.Item passes these two. */
  value?: string;
  onChange?: (value: string) => void;
  /** The field's name in the preview's label ("Preview of Description"). */
  label: string;
  /** Id of the text area (Form.Item's `htmlFor`). */
  id?: string;
  maxLength?: number;
  rows?: number;
  placeholder?: string;
  disabled?: boolean;
  testId: string;
};

/**
 * A Markdown text area with a Preview tab for the staff's texts (documents, incident fields,
 * SOC comments, notes). The preview is the server's own rendering (POST /analyst/markdown/), so
 * that it shows exactly what the saved text will show, sanitised the same way.
 */
export function MarkdownEditor({
  value = '',
  onChange,
  label,
  id,
  maxLength,
  rows = 8,
  placeholder,
  disabled,
  testId,
}: MarkdownEditorProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  return (
    <Tabs
      size="small"
      activeKey={tab}
      onChange={(key) => setTab(key as 'write' | 'preview')}
      data-testid={testId}
      items={[
        {
          key: 'write',
          label: t('markdown.write'),
          children: (
            <>
              <Input.TextArea
                id={id}
                value={value}
                onChange={(event) => onChange?.(event.target.value)}
                rows={rows}
                maxLength={maxLength}
                placeholder={placeholder}
                disabled={disabled}
                aria-describedby={id ? `${id}-hint` : undefined}
                data-testid={`${testId}-input`}
              />
              <Typography.Text
                type="secondary"
                id={id ? `${id}-hint` : undefined}
                style={{ fontSize: token.fontSizeSM }}
              >
                {t('markdown.hint')}
                {maxLength !== undefined &&
                  ` ${t('markdown.counter', { count: value.length, max: maxLength })}`}
              </Typography.Text>
            </>
          ),
        },
        {
          key: 'preview',
          label: t('markdown.preview'),
          children: tab === 'preview' && <MarkdownPreview markdown={value} label={label} testId={testId} />,
        },
      ]}
    />
  );
}

function MarkdownPreview({ markdown, label, testId }: { markdown: string; label: string; testId: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // typing between two looks at the preview asks once
  const text = useDebouncedValue(markdown, 250);
  const preview = useQuery({
    queryKey: ['markdown-preview', text],
    queryFn: ({ signal }) =>
      apiRequest('/analyst/markdown/', {
        method: 'POST',
        body: { markdown: text },
        schema: MarkdownPreviewSchema,
        signal,
        notify: false,
      }),
    enabled: text.trim() !== '',
    staleTime: Infinity,
  });
  const box = {
    minHeight: '8rem',
    padding: token.paddingSM,
    border: `${token.lineWidth}px ${token.lineType} ${token.colorBorder}`,
    borderRadius: token.borderRadius,
    background: token.colorBgContainer,
    overflowX: 'auto' as const,
  };
  if (markdown.trim() === '')
    return (
      <div style={box} data-testid={`${testId}-preview-empty`}>
        <Typography.Text type="secondary">{t('markdown.previewEmpty')}</Typography.Text>
      </div>
    );
  if (preview.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={t('markdown.previewFailed')}
        data-testid={`${testId}-preview-failed`}
      />
    );
  if (!preview.data || text !== markdown)
    return (
      <div style={box} role="status" aria-label={t('markdown.previewLoading')}>
        <Skeleton active paragraph={{ rows: 3 }} />
      </div>
    );
  return (
    <div
      style={box}
      role="region"
      aria-label={t('markdown.previewLabel', { field: label })}
      data-testid={`${testId}-preview`}
      // sanitised by the server as every stored text is
      dangerouslySetInnerHTML={{ __html: preview.data.html }}
    />
  );
}
