import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { buildThemeConfig, contrastRatio, MIN_TEXT_CONTRAST, pickReadable, shade } from './themeConfig.ts';

describe('contrastRatio', () => {
  it('matches the WCAG formula, translucent text included', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 0);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('rgba(0,0,0,0.45)', '#ffffff')).toBeCloseTo(3.35, 1);
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 0);
    expect(shade('#ff8040', 0.5)).toBe('#804020');
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
          config.components?.Button?.defaultHoverColor,
          config.components?.Button?.defaultActiveColor,
          config.components?.Pagination?.itemActiveColorHover,
        ];
        for (const text of texts) {
          expect(contrastRatio(String(text), surface)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
        }
      });

      it(`keeps a primary button's white label readable at rest, hovered and pressed (${mode}, ${brand ?? 'default'})`, () => {
        const button = buildThemeConfig(mode, brand).components?.Button;
        const fills = [button?.colorPrimary, button?.colorPrimaryHover, button?.colorPrimaryActive];
        for (const fill of fills) {
          expect(contrastRatio('#ffffff', String(fill))).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
        }
        // the hover and the press stay visible
        expect(button?.colorPrimaryHover).not.toBe(button?.colorPrimary);
        expect(button?.colorPrimaryActive).not.toBe(button?.colorPrimary);
      });
    }
  }

  it('uses the dark algorithm in dark mode and keeps the brand colour as the seed', () => {
    const config = buildThemeConfig('dark', '#1668dc');
    expect(config.algorithm).toBe(theme.darkAlgorithm);
    expect(config.token?.colorPrimary).toBe('#1668dc');
  });
});
