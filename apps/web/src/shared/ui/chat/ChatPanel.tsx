import { SearchOutlined } from '@ant-design/icons';
import type { Comment } from '@soc/contracts';
import { Button, Empty, Flex, Input, Result, Skeleton, theme, Typography } from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../hooks/useIsPhone.ts';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../lib/storage.ts';
import { CommentItem } from './CommentItem.tsx';
import { CountBadge } from '../CountBadge.tsx';
import './i18n/texts.ts';

/** Width limits of the comments panel (product §A2). */
export const COMMENTS_MIN_WIDTH = 410;
export const COMMENTS_MAX_WIDTH = 750;
/** The panel's offset below the shell's sticky header, and its height: the rest of the viewport. */
const PANEL_TOP = '5rem';
const PANEL_HEIGHT = 'max(32rem, calc(100vh - 6rem))';
/** On a phone the panel is a block of the one column: most of the viewport, its list scrolling inside. */
const PHONE_PANEL_HEIGHT = 'max(28rem, calc(100dvh - 8rem))';
/** Arrow keys on the resizer move it by this much. */
const KEYBOARD_STEP = 20;

export const clampPanelWidth = (width: number): number =>
  Math.min(COMMENTS_MAX_WIDTH, Math.max(COMMENTS_MIN_WIDTH, Math.round(width)));

/** The width the user last gave the panel (it survives reloads), else the minimum. */
function storedPanelWidth(): number {
  const stored = Number(readStorage(STORAGE_KEYS.commentsPanelWidth));
  return Number.isFinite(stored) && stored > 0 ? clampPanelWidth(stored) : COMMENTS_MIN_WIDTH;
}

/** Plain text of a comment for the search: its body without markup, and its author. */
function searchableText(comment: Comment): string {
  const body = new DOMParser().parseFromString(comment.body, 'text/html').body.textContent ?? '';
  return `${comment.author} ${body}`.toLowerCase();
}

export type ChatPanelProps = {
  /** The messages, oldest first. */
  comments: Pick<UseQueryResult<Comment[]>, 'data' | 'isPending' | 'isError' | 'refetch'>;
  /** The composer below the list. */
  composer: ReactNode;
};

/**
 * The right-hand chat of an incident or a task (product §A2, §A4): resizable between 410 and
 * 750 px (default 410) by its left edge, keeping its width across reloads, searchable, 'No comments' when empty, the composer below.
 * On a phone (below 1024 px) it is the full width of the page's one column, and not resizable.
 */
export function ChatPanel({ comments, composer }: ChatPanelProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const isPhone = useIsPhone();
  const [width, setWidthState] = useState(storedPanelWidth);
  const setWidth = (next: number) => {
    setWidthState(next);
    writeStorage(STORAGE_KEYS.commentsPanelWidth, String(next));
  };
  const [search, setSearch] = useState('');
  const listRef = useRef<HTMLDivElement>(null);
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);

  const indexed = useMemo(
    () => (comments.data ?? []).map((comment) => ({ comment, text: searchableText(comment) })),
    [comments.data],
  );
  const needle = search.trim().toLowerCase();
  const shown = needle ? indexed.filter((entry) => entry.text.includes(needle)) : indexed;
  const count = comments.data?.length ?? 0;

  // New comments arrive at the bottom: keep the latest in view.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [count]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = { startX: event.clientX, startWidth: width };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    // The handle is on the panel's left edge: moving left widens it.
    setWidth(clampPanelWidth(drag.current.startWidth + drag.current.startX - event.clientX));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = null;
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
  };
  const onResizerKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const delta = { ArrowLeft: KEYBOARD_STEP, ArrowRight: -KEYBOARD_STEP }[event.key];
    if (delta !== undefined) {
      event.preventDefault();
      setWidth(clampPanelWidth(width + delta));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      setWidth(event.key === 'Home' ? COMMENTS_MIN_WIDTH : COMMENTS_MAX_WIDTH);
    }
  };

  return (
    <aside
      aria-label={t('chat.panel')}
      data-testid="comments-panel"
      data-width={isPhone ? undefined : width}
      style={
        isPhone
          ? {
              height: PHONE_PANEL_HEIGHT,
              display: 'flex',
              flexDirection: 'column',
              gap: token.marginSM,
              minWidth: 0,
              paddingBlockStart: token.paddingSM,
              borderBlockStart: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
            }
          : {
              // Stays in view below the sticky header while the page scrolls; the list scrolls inside.
              position: 'sticky',
              top: PANEL_TOP,
              alignSelf: 'flex-start',
              height: PANEL_HEIGHT,
              flex: `0 0 ${width}px`,
              width,
              display: 'flex',
              flexDirection: 'column',
              gap: token.marginSM,
              minHeight: 0,
              paddingInlineStart: token.paddingSM,
              borderInlineStart: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
            }
      }
    >
      {!isPhone && (
        <div
          role="separator"
          aria-orientation="vertical"
          aria-label={t('chat.resize')}
          aria-valuemin={COMMENTS_MIN_WIDTH}
          aria-valuemax={COMMENTS_MAX_WIDTH}
          aria-valuenow={width}
          tabIndex={0}
          data-testid="comments-resizer"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onResizerKey}
          style={{
            position: 'absolute',
            insetBlock: 0,
            insetInlineStart: -token.paddingXXS,
            width: token.paddingXS,
            cursor: 'col-resize',
            touchAction: 'none',
            zIndex: 1,
          }}
        />
      )}
      <Flex align="center" gap="small">
        <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading5 }}>
          {t('chat.title')}
        </Typography.Title>
        <CountBadge count={count} showZero color={token.colorTextTertiary} data-testid="comments-count" />
      </Flex>
      <Input
        allowClear
        prefix={<SearchOutlined aria-hidden />}
        placeholder={t('chat.search')}
        aria-label={t('chat.search')}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        data-testid="comments-search"
      />
      <div
        ref={listRef}
        role="log"
        aria-live="polite"
        aria-label={t('chat.title')}
        data-testid="comments-list"
        style={{ flex: '1 1 0', minHeight: '8rem', overflowY: 'auto' }}
      >
        {comments.isPending ? (
          <Skeleton active paragraph={{ rows: 4 }} />
        ) : comments.isError ? (
          <Result
            status="error"
            title={t('chat.loadFailed')}
            extra={<Button onClick={() => void comments.refetch()}>{t('common.retry')}</Button>}
          />
        ) : shown.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              <Typography.Text type="secondary" data-testid="comments-empty">
                {count === 0 ? t('chat.empty') : t('chat.nothingFound')}
              </Typography.Text>
            }
          />
        ) : (
          <Flex vertical gap="small">
            {shown.map(({ comment }) => (
              <CommentItem key={comment.id} comment={comment} />
            ))}
          </Flex>
        )}
      </div>
      {composer}
    </aside>
  );
}
