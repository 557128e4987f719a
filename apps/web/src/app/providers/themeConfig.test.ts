import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import {
  buildThemeConfig,
  contrastRatio,
  MIN_LINK_SATURATION,
  MIN_TEXT_CONTRAST,
  pickReadable,
  saturation,
  shade,
  tint,
} from './themeConfig.ts';

describe('contrastRatio', () => {
  it('matches the WCAG formula, translucent text included', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 0);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('rgba(0,0,0,0.45)', '#ffffff')).toBeCloseTo(3.35, 1);
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 0);
    expect(shade('#ff8040', 0.5)).toBe('#804020');
    expect(tint('#000000', 0.5)).toBe('#808080');
    expect(contrastRatio('#00000080', '#ffffff')).toBeCloseTo(contrastRatio('rgba(0,0,0,0.5)', '#ffffff'), 1);
    expect(saturation('#1677ff')).toBeCloseTo(1, 5);
    expect(saturation('rgba(255,255,255,0.85)')).toBe(0);
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

  for (const mode of ['light', 'dark'] as const) {
    for (const brand of brands) {
      it(`makes links readable on every surface and distinct from body text (${mode}, ${brand ?? 'default'})`, () => {
        // the tokens antd renders with, after its algorithm has derived them from the config
        const token = theme.getDesignToken(buildThemeConfig(mode, brand));
        const surfaces = [token.colorBgContainer, token.colorBgElevated, token.colorBgLayout];
        const links = [token.colorLink, token.colorLinkHover, token.colorLinkActive];
        for (const link of links) {
          for (const surface of surfaces) {
            expect(contrastRatio(link, surface)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
          }
          expect(saturation(link)).toBeGreaterThanOrEqual(MIN_LINK_SATURATION);
        }
        expect(saturation(token.colorText)).toBe(0);
        // hover and press show
        expect(new Set(links).size).toBe(3);
      });
    }
  }

  it('uses the dark algorithm in dark mode and keeps the brand colour as the seed', () => {
    const config = buildThemeConfig('dark', '#1668dc');
    expect(config.algorithm).toBe(theme.darkAlgorithm);
    expect(config.token?.colorPrimary).toBe('#1668dc');
  });
});
