import { LockOutlined } from '@ant-design/icons';
import type { AnalystNote } from '@soc/contracts';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Input,
  Result,
  Skeleton,
  theme,
  Typography,
  type GetRef,
} from 'antd';
import { useMemo, useState, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyApiError } from '@/shared/api/index.ts';
import { formatDateTimeWithZone } from '@/shared/lib/formatDateTime.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useAddNoteMutation } from '../api/useAddNoteMutation.ts';
import { useNotesQuery } from '../api/useNotesQuery.ts';
import '../i18n/texts.ts';

/** The longest note the server takes. */
export const NOTE_MAX = 20_000;

/** The note composer's text area, as antd gives it. */
export type NoteComposerRef = GetRef<typeof Input.TextArea>;

export type InternalNotesPanelProps = {
  incidentKey: number;
  /** The composer's text area, for the page's keyboard shortcut. */
  composerRef?: Ref<NoteComposerRef>;
};

/**
 * The SOC's internal notes on an incident (staff only, design §9): never shown to the customer,
 * so the block says so and looks unlike the customer chat (warning background, lock icon).
 * Oldest first, opening on the latest page with "Show earlier notes" above; a composer below
 * (required text up to 20,000 characters, Ctrl/Cmd+Enter adds the note).
 */
export function InternalNotesPanel({ incidentKey, composerRef }: InternalNotesPanelProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const notes = useNotesQuery(incidentKey, true);
  const mutation = useAddNoteMutation(incidentKey);
  const [text, setText] = useState('');
  const canSend = text.trim().length > 0 && !mutation.isPending;

  // pages[0] is the latest page; each page is oldest first
  const shown = useMemo(
    () => [...(notes.data?.pages ?? [])].reverse().flatMap((page) => page.results),
    [notes.data],
  );

  const send = async () => {
    if (!canSend) return;
    try {
      await mutation.mutateAsync(text.trim());
    } catch (error) {
      notifyApiError(error, t('incidentPage.notes.failed'));
      return;
    }
    setText('');
    notifySuccess({ title: t('incidentPage.notes.sent') });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <Card
      size="small"
      data-testid="internal-notes"
      role="region"
      aria-label={t('incidentPage.notes.title')}
      style={{ background: token.colorWarningBg, borderColor: token.colorWarningBorder }}
      styles={{ body: { overflowWrap: 'anywhere' } }}
      title={
        <Flex align="center" gap="small">
          <LockOutlined aria-hidden style={{ color: token.colorWarning }} />
          <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading5 }}>
            {t('incidentPage.notes.title')}
          </Typography.Title>
        </Flex>
      }
    >
      <Flex vertical gap="small">
        <Alert
          type="warning"
          showIcon
          icon={<LockOutlined aria-hidden />}
          title={t('incidentPage.notes.staffOnly')}
          data-testid="notes-staff-only"
        />
        {notes.isPending ? (
          <Skeleton active paragraph={{ rows: 3 }} data-testid="notes-loading" />
        ) : notes.isError && !notes.data ? (
          <Result
            status="error"
            title={t('incidentPage.notes.loadFailed')}
            extra={<Button onClick={() => void notes.refetch()}>{t('common.retry')}</Button>}
            data-testid="notes-error"
          />
        ) : (
          <>
            {notes.hasNextPage && (
              <Button
                size="small"
                onClick={() => void notes.fetchNextPage()}
                loading={notes.isFetchingNextPage}
                style={{ alignSelf: 'center' }}
                data-testid="notes-show-earlier"
              >
                {t('incidentPage.notes.showEarlier')}
              </Button>
            )}
            {shown.length === 0 ? (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={
                  <Typography.Text type="secondary" data-testid="notes-empty">
                    {t('incidentPage.notes.empty')}
                  </Typography.Text>
                }
              />
            ) : (
              <Flex vertical gap="small" role="list" data-testid="notes-list">
                {shown.map((note) => (
                  <NoteItem key={note.id} note={note} />
                ))}
              </Flex>
            )}
          </>
        )}
        <Flex vertical gap="small" role="group" aria-label={t('incidentPage.notes.composer')}>
          <Input.TextArea
            ref={composerRef}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder={t('incidentPage.notes.placeholder')}
            aria-label={t('incidentPage.notes.composer')}
            maxLength={NOTE_MAX}
            showCount
            autoSize={{ minRows: 3, maxRows: 12 }}
            disabled={mutation.isPending}
            data-testid="note-input"
          />
          <Button
            type="primary"
            icon={<LockOutlined aria-hidden />}
            disabled={!canSend}
            loading={mutation.isPending}
            onClick={() => void send()}
            style={{ alignSelf: 'flex-end' }}
            data-testid="note-send"
          >
            {t('incidentPage.notes.send')}
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}

/** One note: author, time and the (server-sanitised) HTML body. */
function NoteItem({ note }: { note: AnalystNote }) {
  const { i18n } = useTranslation();
  const { token } = theme.useToken();
  return (
    <article
      role="listitem"
      data-testid="note"
      data-id={note.id}
      style={{
        padding: token.paddingSM,
        borderRadius: token.borderRadiusLG,
        background: token.colorBgContainer,
        border: `${token.lineWidth}px ${token.lineType} ${token.colorWarningBorder}`,
      }}
    >
      <Flex align="center" gap="small" wrap style={{ marginBottom: token.marginXXS }}>
        <Typography.Text strong data-testid="note-author">
          {note.author}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ marginInlineStart: 'auto', fontSize: token.fontSizeSM }}>
          <time dateTime={new Date(note.created).toISOString()}>
            {formatDateTimeWithZone(note.created, i18n.language)}
          </time>
        </Typography.Text>
      </Flex>
      <div
        data-testid="note-body"
        className="incident-comment-body"
        style={{ overflowWrap: 'anywhere' }}
        // Sanitised on the server as the comments are.
        dangerouslySetInnerHTML={{ __html: note.body }}
      />
    </article>
  );
}
