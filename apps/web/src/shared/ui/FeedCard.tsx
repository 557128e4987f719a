import { theme } from 'antd';
import type { KeyboardEvent, ReactNode } from 'react';

export type FeedCardProps = {
  /** The id of the card's title, which names the article. */
  titleId: string;
  /** The card whose summary the side panel shows. */
  selected: boolean;
  /** Position in the whole list (1-based) and its length; -1: not known (ARIA's value for it). */
  position: number;
  setSize: number;
  onSelect: () => void;
  /** Arrow/Page keys: move focus to the card `offset` places away. */
  onMove?: (offset: number) => void;
  testId: string;
  /** `data-*` attributes that name the card's object for tests (e.g. `{ 'data-key': 7 }`). */
  data?: Record<`data-${string}`, string | number>;
  children: ReactNode;
};

const MOVES: Partial<Record<string, number>> = { ArrowDown: 1, ArrowUp: -1, PageDown: 1, PageUp: -1 };

/**
 * One article of a list feed (incidents, documents, rules): selected by click, Enter or Space,
 * tinted while selected; keys typed on a link inside keep their meaning (Enter follows it).
 */
export function FeedCard({
  titleId,
  selected,
  position,
  setSize,
  onSelect,
  onMove,
  testId,
  data,
  children,
}: FeedCardProps) {
  const { token } = theme.useToken();
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect();
      return;
    }
    const offset = MOVES[event.key];
    if (offset !== undefined && onMove) {
      event.preventDefault();
      onMove(offset);
    }
  };
  return (
    <article
      tabIndex={0}
      aria-labelledby={titleId}
      aria-posinset={position}
      aria-setsize={setSize}
      aria-current={selected ? 'true' : undefined}
      data-testid={testId}
      data-selected={selected}
      {...data}
      onClick={onSelect}
      onKeyDown={onKeyDown}
      style={{
        cursor: 'pointer',
        padding: token.paddingSM,
        borderRadius: token.borderRadiusLG,
        background: selected ? token.colorPrimaryBg : token.colorBgContainer,
        border: `${token.lineWidth}px ${token.lineType} ${selected ? token.colorPrimaryBorder : token.colorBorderSecondary}`,
      }}
    >
      {children}
    </article>
  );
}
