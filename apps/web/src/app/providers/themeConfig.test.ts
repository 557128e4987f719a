import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { buildThemeConfig, contrastRatio, MIN_TEXT_CONTRAST, pickReadable } from './themeConfig.ts';

describe('contrastRatio', () => {
  it('matches the WCAG formula, translucent text included', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 0);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('rgba(0,0,0,0.45)', '#ffffff')).toBeCloseTo(3.35, 1);
  });

  it('picks the first readable candidate, else the best one', () => {
    expect(pickReadable(['#aaaaaa', '#555555', '#000000'], '#ffffff')).toBe('#555555');
    expect(pickReadable(['#eeeeee', '#dddddd'], '#ffffff')).toBe('#dddddd');
  });
});

describe('buildThemeConfig', () => {
  const brands = [undefined, '#1677ff', '#1668dc', '#52c41a', '#722ed1'];
  for (const mode of ['light', 'dark'] as const) {
    for (const brand of brands) {
      it(`keeps menu, link, error and description text readable (${mode}, ${brand ?? 'default'})`, () => {
        const config = buildThemeConfig(mode, brand);
        const surface = theme.getDesignToken(config).colorBgContainer;
        const texts = [
          config.components?.Menu?.itemSelectedColor,
          config.components?.Menu?.subMenuItemSelectedColor,
          config.components?.Form?.colorError,
          config.token?.colorLink,
          config.token?.colorTextDescription,
        ];
        for (const text of texts) {
          expect(contrastRatio(String(text), surface)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
        }
      });
    }
  }

  it('uses the dark algorithm in dark mode and keeps the brand colour as the seed', () => {
    const config = buildThemeConfig('dark', '#1668dc');
    expect(config.algorithm).toBe(theme.darkAlgorithm);
    expect(config.token?.colorPrimary).toBe('#1668dc');
  });
});
