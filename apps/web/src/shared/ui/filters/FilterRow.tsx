import { theme } from 'antd';
import type { ReactNode } from 'react';

export type FilterRowProps = {
  /** The accessible name of the row (a region of the page). */
  label: string;
  testId: string;
  /** The narrowest a filter column may get before the grid wraps. */
  minColumnWidth?: string;
  /** The row's FilterFields. */
  children: ReactNode;
};

/**
 * The filter row of a list screen (incidents, documents, rules; product §B9): the filters in a
 * grid of equal columns that wraps on narrow screens, on a tinted rounded background.
 */
export function FilterRow({ label, testId, minColumnWidth = '16rem', children }: FilterRowProps) {
  const { token } = theme.useToken();
  return (
    <section
      aria-label={label}
      data-testid={testId}
      style={{
        display: 'grid',
        gridTemplateColumns: `repeat(auto-fill, minmax(${minColumnWidth}, 1fr))`,
        gap: token.marginSM,
        padding: token.paddingSM,
        borderRadius: token.borderRadiusLG,
        background: token.colorFillQuaternary,
      }}
    >
      {children}
    </section>
  );
}
