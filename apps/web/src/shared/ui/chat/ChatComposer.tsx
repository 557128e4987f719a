import { CloseOutlined, PaperClipOutlined, SendOutlined } from '@ant-design/icons';
import { ATTACHMENTS_MAX_FILES } from '@soc/contracts';
import { Button, Checkbox, Flex, Input, Progress, Tag, theme, Tooltip } from 'antd';
import { useRef, useState, type DragEvent, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyApiError, type UploadProgress } from '../../api/index.ts';
import { keepFilesWithinLimit } from '../../lib/fileSizeLimit.ts';
import { formatFileSize } from '../../lib/formatFileSize.ts';
import { formatPercent } from '../../lib/formatNumber.ts';
import { notifyError, notifySuccess } from '../notifications.tsx';
import { visuallyHidden } from '../visuallyHidden.ts';
import { attachmentProblems, unsafeNameText } from '../../lib/attachments.ts';
import './i18n/texts.ts';

/** Minimum heights of the composer (its resizer) and of its editor (product §A9). */
export const COMPOSER_MIN_HEIGHT = 150;
export const EDITOR_MIN_HEIGHT = 118;
/** The editor may take up to this share of the viewport. */
const EDITOR_MAX_VIEWPORT_SHARE = 0.5;
/** Arrow keys on the resizer change the height by this much. */
const RESIZE_STEP = 20;

/** An editor height within its limits. */
export const clampEditorHeight = (height: number, viewport: number = window.innerHeight): number =>
  Math.round(Math.max(EDITOR_MIN_HEIGHT, Math.min(height, viewport * EDITOR_MAX_VIEWPORT_SHARE)));

/** What a chat composer sends. */
export interface ChatMessageDraft {
  /** The text (Markdown), trimmed. */
  body: string;
  issueCompleted: boolean;
  files: readonly File[];
  onProgress?: (progress: UploadProgress) => void;
}

export type ChatComposerProps = {
  /** Stores the message; a rejection is shown as an error toast and keeps the draft. */
  onSend: (draft: ChatMessageDraft) => Promise<unknown>;
  pending: boolean;
  /** Offers the "issue completed" flag (incident comments only). */
  showIssueCompleted?: boolean;
};

/**
 * The chat composer (product §A4), shared by incident comments and task chats: send is active
 * only with text; Ctrl/Cmd+Enter sends; files come from the attach button or a drop and are
 * removed with the button shown on hover; text, flag and files clear once the message is stored.
 */
export function ChatComposer({ onSend, pending, showIssueCompleted = false }: ChatComposerProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [issueCompleted, setIssueCompleted] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [percent, setPercent] = useState<number | null>(null);
  const [editorHeight, setEditorHeight] = useState(EDITOR_MIN_HEIGHT);
  const drag = useRef<{ startY: number; startHeight: number } | null>(null);
  const canSend = text.trim().length > 0 && !pending;

  const addFiles = (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const accepted = keepFilesWithinLimit(list, t);
    if (accepted.length > 0) setFiles((current) => [...current, ...accepted]);
  };

  const send = async () => {
    if (!canSend) return;
    const problems = attachmentProblems(files);
    if (problems.length > 0) {
      notifyError({
        title: t('chat.failed'),
        description: problems.map((problem) =>
          problem.kind === 'unsafe-name'
            ? unsafeNameText(t, problem)
            : problem.kind === 'too-many'
              ? t('chat.tooManyFiles', { max: problem.max })
              : t('chat.fileTooLarge', { name: problem.name, size: problem.maxMb }),
        ),
      });
      return;
    }
    setPercent(files.length > 0 ? 0 : null);
    try {
      await onSend({
        body: text.trim(),
        issueCompleted,
        files,
        onProgress: (progress) => setPercent(progress.percent),
      });
    } catch (error) {
      notifyApiError(error, t('chat.failed'));
      return;
    } finally {
      setPercent(null);
    }
    setText('');
    setFiles([]);
    setIssueCompleted(false);
    notifySuccess({ title: t('chat.sent') });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  };

  // The handle sits on the composer's top edge: dragging up makes the editor taller.
  const resizeBy = (delta: number, from: number) => setEditorHeight(clampEditorHeight(from + delta));
  const onResizeStart = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = { startY: event.clientY, startHeight: editorHeight };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onResizeMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) resizeBy(drag.current.startY - event.clientY, drag.current.startHeight);
  };
  const onResizeEnd = () => {
    drag.current = null;
  };
  const onResizeKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const delta = { ArrowUp: RESIZE_STEP, ArrowDown: -RESIZE_STEP }[event.key];
    if (delta === undefined) return;
    event.preventDefault();
    resizeBy(delta, editorHeight);
  };

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    addFiles(event.dataTransfer.files);
  };

  return (
    <Flex
      vertical
      gap="small"
      role="group"
      aria-label={t('chat.composer')}
      data-testid="comment-composer"
      data-dragging={dragging}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      style={{
        position: 'relative',
        flex: 'none',
        minHeight: COMPOSER_MIN_HEIGHT,
        padding: token.paddingSM,
        borderRadius: token.borderRadiusLG,
        border: `${token.lineWidth}px ${dragging ? 'dashed' : token.lineType} ${
          dragging ? token.colorPrimary : token.colorBorderSecondary
        }`,
        background: dragging ? token.colorPrimaryBg : token.colorBgContainer,
      }}
    >
      <div
        role="separator"
        aria-orientation="horizontal"
        aria-label={t('chat.resizeComposer')}
        aria-valuemin={EDITOR_MIN_HEIGHT}
        aria-valuenow={editorHeight}
        tabIndex={0}
        data-testid="composer-resizer"
        onPointerDown={onResizeStart}
        onPointerMove={onResizeMove}
        onPointerUp={onResizeEnd}
        onPointerCancel={onResizeEnd}
        onKeyDown={onResizeKey}
        style={{
          position: 'absolute',
          insetInline: 0,
          insetBlockStart: -token.paddingXXS,
          height: token.paddingXS,
          cursor: 'row-resize',
          touchAction: 'none',
        }}
      />
      <Input.TextArea
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={dragging ? t('chat.dropHint') : t('chat.placeholder')}
        aria-label={t('chat.composer')}
        style={{ height: editorHeight, minHeight: EDITOR_MIN_HEIGHT, resize: 'none' }}
        disabled={pending}
        data-testid="comment-input"
      />
      {files.length > 0 && (
        <Flex wrap gap="small" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {files.map((file, index) => (
            <FileChip
              key={`${file.name}-${file.size}-${file.lastModified}-${index}`}
              name={file.name}
              size={formatFileSize(file.size, i18n.language)}
              disabled={pending}
              onRemove={() => setFiles((current) => current.filter((_, other) => other !== index))}
            />
          ))}
        </Flex>
      )}
      {percent !== null && (
        <Progress
          percent={percent}
          size="small"
          format={(p) => formatPercent(p ?? 0)}
          aria-label={t('chat.attach')}
        />
      )}
      <Flex align="center" gap="small" wrap>
        <Tooltip title={t('chat.attach')}>
          <Button
            icon={<PaperClipOutlined aria-hidden />}
            aria-label={t('chat.attach')}
            onClick={() => inputRef.current?.click()}
            disabled={pending || files.length >= ATTACHMENTS_MAX_FILES}
            data-testid="comment-attach"
          />
        </Tooltip>
        <input
          ref={inputRef}
          type="file"
          multiple
          tabIndex={-1}
          aria-hidden
          style={visuallyHidden}
          data-testid="comment-file-input"
          onChange={(event) => {
            addFiles(event.target.files);
            event.target.value = '';
          }}
        />
        {showIssueCompleted && (
          <Checkbox
            checked={issueCompleted}
            onChange={(event) => setIssueCompleted(event.target.checked)}
            disabled={pending}
            data-testid="comment-issue-completed"
          >
            {t('chat.issueCompleted')}
          </Checkbox>
        )}
        <Button
          type="primary"
          icon={<SendOutlined aria-hidden />}
          onClick={() => void send()}
          disabled={!canSend}
          loading={pending}
          style={{ marginInlineStart: 'auto' }}
          data-testid="comment-send"
        >
          {t('chat.send')}
        </Button>
      </Flex>
    </Flex>
  );
}

type FileChipProps = {
  name: string;
  size: string;
  disabled: boolean;
  onRemove: () => void;
};

/** A file to be sent; its remove button shows on hover or keyboard focus. */
function FileChip({ name, size, disabled, onRemove }: FileChipProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [hover, setHover] = useState(false);
  return (
    <li
      data-testid="comment-file"
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      onFocus={() => setHover(true)}
      onBlur={() => setHover(false)}
    >
      <Tag icon={<PaperClipOutlined aria-hidden />} style={{ marginInlineEnd: 0 }}>
        {name} · {size}
        <Button
          type="text"
          size="small"
          icon={<CloseOutlined aria-hidden />}
          aria-label={t('chat.removeFile', { name })}
          onClick={onRemove}
          disabled={disabled}
          data-testid="comment-file-remove"
          style={{ opacity: hover ? 1 : 0, marginInlineStart: token.marginXXS, height: 'auto', padding: 0 }}
        />
      </Tag>
    </li>
  );
}
