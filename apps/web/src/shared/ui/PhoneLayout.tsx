import { Drawer, Flex } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../hooks/useIsPhone.ts';

export type PhoneDetailDrawerProps = {
  open: boolean;
  onClose?: () => void;
  title?: ReactNode;
  testId?: string;
  children: ReactNode;
};

/**
 * Where a list's side panel (the selected item's detail) goes on a phone: a drawer as wide as the
 * screen, closed by its close button or by dropping the selection.
 */
export function PhoneDetailDrawer({ open, onClose, title, testId, children }: PhoneDetailDrawerProps) {
  const { t } = useTranslation();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="right"
      size="100%"
      // a dialog needs a name: the detail's own title or "Details"
      title={title ?? t('list.details')}
      closable={{ 'aria-label': t('list.closePanel') }}
      data-testid={testId}
    >
      {children}
    </Drawer>
  );
}

export type FilterDrawerProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  /** The close button's accessible name ("Close the filters"). */
  closeLabel: string;
  testId?: string;
  children: ReactNode;
};

/**
 * Where a list's filters go on a phone (the incident list, FilterBar): a drawer from the right,
 * at most 22rem wide, its fields one below the other.
 */
export function FilterDrawer({ open, onClose, title, closeLabel, testId, children }: FilterDrawerProps) {
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="right"
      size="min(22rem, 90vw)"
      title={title}
      closable={{ 'aria-label': closeLabel }}
      data-testid={testId}
    >
      {children}
    </Drawer>
  );
}

export type SplitColumnsProps = {
  /** The narrower column, first (left) on the desktop. */
  side: ReactNode;
  /** Its CSS flex basis on the desktop ("30rem"). */
  sideWidth: string;
  /** The wider column, taking the rest of the width. */
  main: ReactNode;
  /** The side column after (right of) the main one. */
  sideLast?: boolean;
  /** Style of the side column's box on the desktop (sticky and the like). */
  sideStyle?: CSSProperties;
  align?: CSSProperties['alignItems'];
  testId?: string;
};

/**
 * Two columns side by side on the desktop; on a phone (useIsPhone) one below the other, each as
 * wide as the screen, the side column first unless `sideLast`. A detail page's layout (design §9:
 * one-column pages below 1024 px).
 */
export function SplitColumns({
  side,
  sideWidth,
  main,
  sideLast = false,
  sideStyle,
  align = 'start',
  testId,
}: SplitColumnsProps) {
  const isPhone = useIsPhone();
  const sideBox = (
    <div style={isPhone ? { minWidth: 0 } : { flex: `0 0 ${sideWidth}`, minWidth: 0, ...sideStyle }}>
      {side}
    </div>
  );
  const mainBox = <div style={{ flex: '1 1 0', minWidth: 0 }}>{main}</div>;
  return (
    <Flex vertical={isPhone} gap="middle" align={isPhone ? 'stretch' : align} data-testid={testId}>
      {sideLast ? mainBox : sideBox}
      {sideLast ? sideBox : mainBox}
    </Flex>
  );
}
