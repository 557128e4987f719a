import { DeleteOutlined, InboxOutlined, PaperClipOutlined } from '@ant-design/icons';
import { ATTACHMENTS_MAX_FILES } from '@soc/contracts';
import { Button, Flex, theme, Typography } from 'antd';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '../lib/formatFileSize.ts';
import { clipText } from './clipText.ts';
import { visuallyHidden } from './visuallyHidden.ts';
import { ATTACHMENT_MAX_MB, keepFilesWithinLimit } from '../lib/fileSizeLimit.ts';

export type AttachmentsInputProps = {
  /** Set by Form.Item: the file input gets it, so that the field label names it. */
  id?: string;
  value?: File[];
  onChange?: (files: File[]) => void;
  disabled?: boolean;
};

/**
 * Files to attach: dropped on the zone or chosen with the button (a native multiple file
 * input), listed with their sizes and removable. Files over the size limit are refused as they
 * are chosen; the count and names are checked by the form's rules.
 */
export function AttachmentsInput({ id, value = [], onChange, disabled }: AttachmentsInputProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const add = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const accepted = keepFilesWithinLimit(files, t);
    if (accepted.length > 0) onChange?.([...value, ...accepted]);
  };

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (disabled) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) add(event.dataTransfer.files);
  };

  return (
    <Flex vertical gap="small">
      <Flex
        vertical
        align="center"
        gap="small"
        data-testid="create-attachments-dropzone"
        onDragOver={onDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        style={{
          padding: token.paddingMD,
          borderRadius: token.borderRadiusLG,
          border: `${token.lineWidth}px dashed ${dragging ? token.colorPrimary : token.colorBorder}`,
          background: dragging ? token.colorPrimaryBg : token.colorFillAlter,
        }}
      >
        <InboxOutlined
          aria-hidden
          style={{ fontSize: token.fontSizeHeading3, color: token.colorTextSecondary }}
        />
        <Flex align="center" gap="small" wrap justify="center">
          <Typography.Text type="secondary">{t('uploads.dropHint')}</Typography.Text>
          <Button
            icon={<PaperClipOutlined aria-hidden />}
            onClick={() => inputRef.current?.click()}
            disabled={disabled}
            aria-controls={id}
          >
            {t('uploads.chooseFiles')}
          </Button>
        </Flex>
        <Typography.Text type="secondary">
          {t('uploads.filesHint', { max: ATTACHMENTS_MAX_FILES, size: ATTACHMENT_MAX_MB })}
        </Typography.Text>
        <input
          ref={inputRef}
          id={id}
          type="file"
          multiple
          disabled={disabled}
          data-testid="create-attachments"
          style={visuallyHidden}
          onChange={(event) => {
            add(event.target.files);
            // Choosing the same file again must fire another change.
            event.target.value = '';
          }}
        />
      </Flex>
      {value.length > 0 && (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="create-attachments-list">
          {value.map((file, index) => (
            <li key={`${file.name}-${file.size}-${file.lastModified}-${index}`}>
              <Flex align="center" gap="small">
                <PaperClipOutlined aria-hidden />
                <Typography.Text title={file.name} style={{ ...clipText, flex: 1 }}>
                  {file.name}
                </Typography.Text>
                <Typography.Text type="secondary">{formatFileSize(file.size, i18n.language)}</Typography.Text>
                <Button
                  type="text"
                  size="small"
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={t('uploads.removeFile', { name: file.name })}
                  disabled={disabled}
                  onClick={() => onChange?.(value.filter((_, other) => other !== index))}
                />
              </Flex>
            </li>
          ))}
        </ul>
      )}
    </Flex>
  );
}
