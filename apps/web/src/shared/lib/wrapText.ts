import type { CSSProperties } from 'react';

/**
 * Text that wraps inside its card however long it is: rule names and categories often have no
 * spaces to break at (product part B cards at 1440 px), so a break may fall anywhere.
 */
export const wrapText: CSSProperties = {
  whiteSpace: 'normal',
  overflowWrap: 'anywhere',
  minWidth: 0,
};
