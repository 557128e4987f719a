import type { CSSProperties } from 'react';

/**
 * One line of text cut with an ellipsis by CSS alone. Cheaper than Typography's `ellipsis`,
 * which measures every instance: lists of cards and files render many of them.
 */
export const clipText: CSSProperties = {
  display: 'block',
  overflow: 'hidden',
  whiteSpace: 'nowrap',
  textOverflow: 'ellipsis',
  minWidth: 0,
};
