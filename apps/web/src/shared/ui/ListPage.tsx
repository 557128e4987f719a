import { FilterOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Result, Skeleton, theme, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorDescription } from '../api/index.ts';
import { useIsPhone } from '../hooks/useIsPhone.ts';
import { CountBadge } from './CountBadge.tsx';
import { PhoneDetailDrawer } from './PhoneLayout.tsx';

/** What the scaffold needs of the list's (infinite) query. */
export type ListPageQuery = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  /** Pages loaded so far; a failure with pages shown is the feed's own error row, not the page's. */
  data: unknown;
  refetch: () => unknown;
};

export type ListPageProps = {
  /**
   * Prefix of the test ids: `${testId}-loading`, `-error`, `-retry`, `-empty`; the root is
   * `${testId}-page` unless `rootTestId` names it otherwise.
   */
  testId: string;
  /** Test id of the root, or null for a scaffold inside a page that has its own. */
  rootTestId?: string | null;
  /** Extra `data-*` attributes of the root. */
  rootData?: Record<`data-${string}`, string>;
  /** The page's heading, with `total` beside it. */
  title?: string;
  /** What the list holds ("1-40 of 100"), announced as it changes; null until it is known. */
  total?: string | null;
  /** Everything else above the list: toolbar, filters, notices. */
  header?: ReactNode;
  query: ListPageQuery;
  /** The loaded list has no item. */
  isEmpty: boolean;
  loadFailedText: string;
  emptyText: string;
  /**
   * The list is empty because of a search or filters: the empty state then says what was
   * searched and offers to clear them, instead of a bare "No data".
   */
  emptyFiltered?: EmptyFiltered;
  /** The list (a feed), shown once items are loaded. */
  children: ReactNode;
  /**
   * The side panel: the selected item's detail, null for the hint, undefined for no panel. On a
   * phone (useIsPhone) the detail opens in a drawer as wide as the screen, without the hint.
   */
  panel?: ReactNode;
  /** Closes the detail (drops the selection): the phone's drawer calls it. */
  onPanelClose?: () => void;
  /** The detail's title in the phone's drawer. */
  panelTitle?: ReactNode;
  /** What the side panel says while nothing is selected. */
  panelHint?: string;
  /** Share of the width that the side panel takes (CSS flex basis). */
  panelWidth?: string;
  /** Height of the list's scroll area; the side panel grows no taller. */
  height: string;
  /** Text rows of each placeholder card while the first page loads. */
  skeletonRows?: number;
};

export type EmptyFiltered = {
  /** The search text in use ('' or null: none). */
  search: string | null;
  /** Filters in use besides the search. */
  filters: number;
  onClear: () => void;
};

/** What an empty list says when a search or filters emptied it, with the way back. */
export function EmptyResults({ testId, search, filters, onClear }: EmptyFiltered & { testId: string }) {
  const { t } = useTranslation();
  const text = search?.trim();
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <Typography.Text type="secondary">
          {text
            ? filters > 0
              ? t('list.nothingFoundForWithFilters', { search: text, count: filters })
              : t('list.nothingFoundFor', { search: text })
            : t('list.nothingMatchesFilters', { count: filters })}
        </Typography.Text>
      }
      data-testid={`${testId}-empty`}
      data-filtered="true"
    >
      <Button icon={<UndoOutlined aria-hidden />} onClick={onClear} data-testid={`${testId}-empty-clear`}>
        {t('list.clearFilters')}
      </Button>
    </Empty>
  );
}

/**
 * The scaffold of a list screen (design §10.12): a header, then the list in one of its states
 * (loading placeholders, error with retry, empty, the feed) beside a side panel.
 */
export function ListPage({
  testId,
  rootTestId,
  rootData,
  title,
  total,
  header,
  query,
  isEmpty,
  loadFailedText,
  emptyText,
  emptyFiltered,
  children,
  panel,
  onPanelClose,
  panelTitle,
  panelHint,
  panelWidth = '36%',
  height,
  skeletonRows = 2,
}: ListPageProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const isPhone = useIsPhone();
  let body: ReactNode;
  if (query.isPending) body = <ListSkeleton testId={`${testId}-loading`} rows={skeletonRows} />;
  else if (query.isError && query.data === undefined) {
    body = (
      <Result
        status="error"
        title={loadFailedText}
        subTitle={query.error instanceof ApiError ? errorDescription(query.error).join(' ') : undefined}
        extra={
          <Button onClick={() => void query.refetch()} data-testid={`${testId}-retry`}>
            {t('common.retry')}
          </Button>
        }
        data-testid={`${testId}-error`}
      />
    );
  } else if (isEmpty && emptyFiltered && (emptyFiltered.search?.trim() || emptyFiltered.filters > 0)) {
    body = <EmptyResults testId={testId} {...emptyFiltered} />;
  } else if (isEmpty) {
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={<Typography.Text type="secondary">{emptyText}</Typography.Text>}
        data-testid={`${testId}-empty`}
      />
    );
  } else body = children;

  return (
    <Flex
      vertical
      gap="middle"
      data-testid={rootTestId === undefined ? `${testId}-page` : (rootTestId ?? undefined)}
      {...rootData}
    >
      {title !== undefined && (
        <Flex align="baseline" gap="middle" wrap>
          <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading2 }}>
            {title}
          </Typography.Title>
          {total != null && (
            <Typography.Text type="secondary" data-testid={`${testId}-total`} aria-live="polite">
              {total}
            </Typography.Text>
          )}
        </Flex>
      )}
      {header}
      <Flex gap="middle" align="stretch">
        <div style={{ flex: '1 1 0', minWidth: 0 }}>{body}</div>
        {isPhone ? (
          <PhoneDetailDrawer
            open={panel != null}
            onClose={onPanelClose}
            title={panelTitle}
            testId={`${testId}-side`}
          >
            {panel}
          </PhoneDetailDrawer>
        ) : (
          panel !== undefined && (
            <div
              style={{
                flex: `0 0 ${panelWidth}`,
                minWidth: 0,
                maxHeight: height,
                display: 'flex',
                flexDirection: 'column',
              }}
              data-testid={`${testId}-side`}
            >
              {panel ?? (
                <Flex
                  align="center"
                  justify="center"
                  style={{
                    flex: 1,
                    minHeight: '12rem',
                    borderRadius: token.borderRadiusLG,
                    border: `${token.lineWidth}px dashed ${token.colorBorderSecondary}`,
                  }}
                >
                  <Typography.Text type="secondary">{panelHint}</Typography.Text>
                </Flex>
              )}
            </div>
          )
        )}
      </Flex>
    </Flex>
  );
}

export type FilterToggleProps = {
  /** Number of filters in use, shown on the badge. */
  active: number;
  open: boolean;
  onToggle: () => void;
  text: string;
  /** Accessible name while filters are in use ("Filters, 2 applied"). */
  countLabel: string;
  /** Id of the filter row the button opens. */
  controls?: string;
  testId: string;
};

/** The toolbar button that shows and hides a list's filters, with the number in use. */
export function FilterToggle({
  active,
  open,
  onToggle,
  text,
  countLabel,
  controls,
  testId,
}: FilterToggleProps) {
  return (
    <CountBadge count={active} size="small">
      <Button
        icon={<FilterOutlined aria-hidden />}
        type={open ? 'primary' : 'default'}
        aria-expanded={open}
        aria-controls={open ? controls : undefined}
        aria-label={active > 0 ? countLabel : undefined}
        onClick={onToggle}
        data-testid={testId}
      >
        {text}
      </Button>
    </CountBadge>
  );
}

export type ResetFiltersButtonProps = {
  text: string;
  /** What the button resets, as its tooltip. */
  label: string;
  onReset: () => void;
  testId: string;
};

/** The toolbar button that drops a list's search, filters and sort. */
export function ResetFiltersButton({ text, label, onReset, testId }: ResetFiltersButtonProps) {
  return (
    <Button icon={<UndoOutlined aria-hidden />} onClick={onReset} title={label} data-testid={testId}>
      {text}
    </Button>
  );
}

type ListSkeletonProps = { testId: string; rows: number };

/** The list's loading state: card-shaped placeholders. */
function ListSkeleton({ testId, rows }: ListSkeletonProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical gap="small" role="status" aria-label={t('common.loading')} data-testid={testId}>
      {Array.from({ length: 4 }, (_, index) => (
        <div
          key={index}
          style={{
            padding: token.paddingSM,
            borderRadius: token.borderRadiusLG,
            border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
            background: token.colorBgContainer,
          }}
        >
          <Skeleton active title paragraph={{ rows }} />
        </div>
      ))}
    </Flex>
  );
}
