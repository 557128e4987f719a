import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { heatStyles } from './MitreMatrix.tsx';

const LEVELS = ['low', 'medium', 'high', 'higher'] as const;

describe('heat colours of the dashboard matrix', () => {
  it.each([
    ['light', theme.getDesignToken(), false],
    ['dark', theme.getDesignToken({ algorithm: theme.darkAlgorithm }), true],
  ] as const)('gives every level its own step of the red palette (%s theme)', (_name, token, dark) => {
    const styles = heatStyles(token, dark);
    const backgrounds = LEVELS.map((level) => styles[level].background);
    expect(new Set(backgrounds).size).toBe(LEVELS.length);
    expect(backgrounds.every((colour) => /^#[0-9a-f]{6}$/i.test(colour))).toBe(true);
    // the strongest step carries its own text colour; the others read in the theme's text
    expect(styles.higher.color).toBeDefined();
    expect(styles.low.color).toBeUndefined();
    expect(styles.none.background).toBe('transparent');
  });
});
