import { theme, type ThemeConfig } from 'antd';
import type { ThemeMode } from '@/shared/theme/themeMode.ts';

/** Height of the app shell's header (antd's default, pinned: toasts are placed below it). */
export const SHELL_HEADER_HEIGHT = 64;

/** WCAG AA minimum contrast for normal-size text. */
export const MIN_TEXT_CONTRAST = 4.5;

type Rgba = [red: number, green: number, blue: number, alpha: number];

function parseColor(color: string): Rgba | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(color);
  if (hex?.[1]) {
    const digits = hex[1].length === 3 ? hex[1].replace(/./g, '$&$&') : hex[1];
    const byte = (index: number) => parseInt(digits.slice(index * 2, index * 2 + 2), 16);
    return [byte(0), byte(1), byte(2), digits.length === 8 ? byte(3) / 255 : 1];
  }
  const rgba = /^rgba?\(([^)]+)\)$/i.exec(color.replace(/\s+/g, ''));
  if (!rgba?.[1]) return null;
  const [red = 0, green = 0, blue = 0, alpha = 1] = rgba[1].split(',').map(Number);
  return [red, green, blue, alpha];
}

const luminance = ([red, green, blue]: Rgba): number => {
  const channel = (value: number) => {
    const scaled = value / 255;
    return scaled <= 0.03928 ? scaled / 12.92 : ((scaled + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue);
};

/** WCAG contrast ratio of a (possibly translucent) text colour over an opaque background. */
export function contrastRatio(foreground: string, background: string): number {
  const fg = parseColor(foreground);
  const bg = parseColor(background);
  if (!fg || !bg) return 1;
  const alpha = fg[3];
  const blended: Rgba = [
    fg[0] * alpha + bg[0] * (1 - alpha),
    fg[1] * alpha + bg[1] * (1 - alpha),
    fg[2] * alpha + bg[2] * (1 - alpha),
    1,
  ];
  const [lighter, darker] = [luminance(blended), luminance(bg)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/** `color` mixed with `target` (r, g, b) by `amount` (0 to 1), as #rrggbb. */
function mixWith(color: string, target: number, amount: number): string {
  const rgba = parseColor(color);
  if (!rgba) return color;
  const channel = (value: number) =>
    Math.round(value + (target - value) * amount)
      .toString(16)
      .padStart(2, '0');
  return `#${channel(rgba[0])}${channel(rgba[1])}${channel(rgba[2])}`;
}

/** `color` mixed with black by `amount` (0 to 1), as #rrggbb. */
export const shade = (color: string, amount: number): string => mixWith(color, 0, amount);

/** `color` mixed with white by `amount` (0 to 1), as #rrggbb. */
export const tint = (color: string, amount: number): string => mixWith(color, 255, amount);

/**
 * HSL saturation (0 to 1) of a colour: body text is grey (0), so a link needs a clear hue to be
 * told apart from it by more than its lightness.
 */
export function saturation(color: string): number {
  const rgba = parseColor(color);
  if (!rgba) return 0;
  const channels = rgba.slice(0, 3).map((value) => value / 255);
  const max = Math.max(...channels);
  const min = Math.min(...channels);
  const lightness = (max + min) / 2;
  if (max === min) return 0;
  return (max - min) / (1 - Math.abs(2 * lightness - 1));
}

/** Below this saturation a link reads as grey text. */
export const MIN_LINK_SATURATION = 0.3;

/** `color` darkened in steps of a tenth, down to 70 % black. */
const shades = (color: string): string[] => [1, 2, 3, 4, 5, 6, 7].map((step) => shade(color, step / 10));

/** The first candidate readable on `background`, else the most readable one. */
export function pickReadable(candidates: string[], background: string): string {
  const readable = candidates.find((color) => contrastRatio(color, background) >= MIN_TEXT_CONTRAST);
  if (readable) return readable;
  return candidates.reduce((best, color) =>
    contrastRatio(color, background) > contrastRatio(best, background) ? color : best,
  );
}

/** antd's default link hue, the fallback when no step of the brand colour makes a readable link. */
const DEFAULT_LINK_SEED = '#1677ff';

type LinkColors = { seed: string; hover: string; active: string };

/**
 * Link colours readable (WCAG AA) on every surface a link sits on (page, card, popup) and with a
 * clear hue, so that tenant ids, incident keys, attachments and action links read as links and
 * not as body text. `colorLink` is an antd seed: antd puts it through the algorithm's palette
 * (the dark one darkens it: the default blue becomes 3.5:1 on a dark card), so the seed is
 * chosen by the link colour it yields. Hover and press step further away from the background.
 */
function pickLinkColors(
  algorithm: ThemeConfig['algorithm'],
  seed: ThemeConfig['token'],
  base: ReturnType<typeof theme.getDesignToken>,
): LinkColors {
  const dark = algorithm === theme.darkAlgorithm;
  const backgrounds = [base.colorBgContainer, base.colorBgElevated, base.colorBgLayout];
  const worstContrast = (color: string) => Math.min(...backgrounds.map((bg) => contrastRatio(color, bg)));
  const readable = (color: string) =>
    worstContrast(color) >= MIN_TEXT_CONTRAST && saturation(color) >= MIN_LINK_SATURATION;
  const away = (color: string, amount: number) => (dark ? tint(color, amount) : shade(color, amount));
  const steps = (color: string) => [0, 1, 2, 3, 4, 5, 6, 7].map((step) => away(color, step / 10));
  // the link colour antd derives from a seed (one design-token computation per seed tried)
  const derived = new Map<string, string>();
  const linkFrom = (candidate: string) => {
    let link = derived.get(candidate);
    if (link === undefined) {
      link = theme.getDesignToken({ algorithm, token: { ...seed, colorLink: candidate } }).colorLink;
      derived.set(candidate, link);
    }
    return link;
  };

  const candidates = [...steps(base.colorPrimary), ...steps(DEFAULT_LINK_SEED)];
  const chosen =
    candidates.find((candidate) => readable(linkFrom(candidate))) ??
    candidates.reduce((best, candidate) =>
      worstContrast(linkFrom(candidate)) > worstContrast(linkFrom(best)) ? candidate : best,
    );
  const link = linkFrom(chosen);
  // the furthest step that keeps the hue (a tint towards white greys a dark brand out)
  const step = (amounts: number[]) =>
    amounts.map((amount) => away(link, amount)).find(readable) ?? away(link, amounts.at(-1) ?? 0);
  return { seed: chosen, hover: step([0.2, 0.15, 0.1]), active: step([0.35, 0.3, 0.25, 0.2]) };
}

/**
 * antd's theme for a mode and brand colour, with text colours raised to WCAG AA where antd's
 * defaults fall short: descriptions and description-list labels (45 % opacity), placeholders
 * (25 %), form error messages, the selected menu entry and tab (the primary colour, which a
 * brand may set too light or, in dark mode, too dark), and the white label of a primary button
 * at rest, hovered and pressed (antd's hover step is one palette step lighter: 3:1 on the
 * default blue). The replacements are antd's own tokens for the same palette, picked by
 * measured contrast. Links get their own colours (see `pickLinkColors`).
 */
export function buildThemeConfig(mode: ThemeMode, primaryColor: string | undefined): ThemeConfig {
  const algorithm = mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm;
  const seed = primaryColor ? { colorPrimary: primaryColor } : {};
  const base = theme.getDesignToken({ algorithm, token: seed });
  const surface = base.colorBgContainer;
  // Candidates walk away from the brand colour one palette step at a time, darker and lighter;
  // plain text colour is the last resort.
  const primaryText = pickReadable(
    [
      base.colorPrimaryText,
      base.colorPrimaryTextActive,
      base.colorPrimaryTextHover,
      base.colorPrimaryBorderHover,
      base.colorPrimaryBorder,
      base.colorText,
    ],
    surface,
  );
  // A primary button's fill under its white label: the brand's step if readable, else antd's
  // pressed step, else the brand darkened; hovered and pressed, antd's steps where readable and
  // distinct, else darker than at rest, so that the hover and press still show.
  const onPrimary = base.colorTextLightSolid;
  const primaryFill = pickReadable(
    [base.colorPrimary, base.colorPrimaryActive, ...shades(base.colorPrimary)],
    onPrimary,
  );
  const stateFill = (antdStep: string, darker: number) =>
    antdStep !== primaryFill && contrastRatio(onPrimary, antdStep) >= MIN_TEXT_CONTRAST
      ? antdStep
      : shade(primaryFill, darker);
  const primaryFillHover = stateFill(base.colorPrimaryHover, 0.12);
  const primaryFillActive = stateFill(base.colorPrimaryActive, 0.24);
  const links = pickLinkColors(algorithm, seed, base);
  const errorText = pickReadable(
    [
      base.colorErrorText,
      base.colorErrorTextActive,
      base.colorErrorTextHover,
      base.colorErrorBorderHover,
      base.colorErrorBorder,
      base.colorText,
    ],
    surface,
  );

  return {
    algorithm,
    token: {
      ...seed,
      colorTextDescription: base.colorTextSecondary,
      // antd's 25 % placeholders are unreadable (WCAG AA asks 4.5:1 of placeholder text too).
      colorTextPlaceholder: base.colorTextSecondary,
      colorLink: links.seed,
      colorLinkHover: links.hover,
      colorLinkActive: links.active,
    },
    components: {
      Layout: { headerHeight: SHELL_HEADER_HEIGHT },
      Descriptions: { labelColor: base.colorTextSecondary },
      Tabs: { itemSelectedColor: primaryText, itemHoverColor: primaryText, itemActiveColor: primaryText },
      Form: { colorError: errorText },
      Button: {
        colorPrimary: primaryFill,
        colorPrimaryHover: primaryFillHover,
        colorPrimaryActive: primaryFillActive,
        // a default button's hovered and pressed label is primary text on the surface
        defaultHoverColor: primaryText,
        defaultHoverBorderColor: primaryText,
        defaultActiveColor: primaryText,
        defaultActiveBorderColor: primaryText,
      },
      Pagination: { itemActiveColor: primaryText, itemActiveColorHover: primaryText },
      Menu: {
        itemSelectedColor: primaryText,
        subMenuItemSelectedColor: primaryText,
        horizontalItemSelectedColor: primaryText,
        itemHoverColor: primaryText,
        horizontalItemHoverColor: primaryText,
      },
    },
  };
}
