import { theme, Typography } from 'antd';
import yaml from 'highlight.js/lib/languages/yaml';
import { createLowlight } from 'lowlight';
import type { CSSProperties, ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ThemeMode } from '@/shared/theme/themeMode.ts';
import { useThemeMode } from '@/shared/theme/ThemeModeContext.tsx';
import '../i18n/texts.ts';

const lowlight = createLowlight({ yaml });

type HastNode =
  | { type: 'text'; value: string }
  | { type: 'element'; properties?: { className?: unknown }; children: HastNode[] }
  | { type: 'root'; children: HastNode[] };

/**
 * Colours of highlight.js's YAML classes per theme, each at least 4.5:1 against the block's
 * background (antd's palette, darker shades in light, lighter ones in dark).
 */
const PALETTES: Record<ThemeMode, Record<string, string>> = {
  light: {
    'hljs-attr': '#0050b3',
    'hljs-string': '#237804',
    'hljs-number': '#ad4e00',
    'hljs-literal': '#ad4e00',
    'hljs-comment': '#595959',
    'hljs-bullet': '#a8071a',
    'hljs-meta': '#595959',
    'hljs-type': '#531dab',
    'hljs-punctuation': '#595959',
  },
  dark: {
    'hljs-attr': '#69b1ff',
    'hljs-string': '#95de64',
    'hljs-number': '#ffc069',
    'hljs-literal': '#ffc069',
    'hljs-comment': '#a6a6a6',
    'hljs-bullet': '#ff7875',
    'hljs-meta': '#a6a6a6',
    'hljs-type': '#b37feb',
    'hljs-punctuation': '#a6a6a6',
  },
};

function palette(mode: ThemeMode): Record<string, CSSProperties> {
  return Object.fromEntries(
    Object.entries(PALETTES[mode]).map(([name, color]) => [
      name,
      name === 'hljs-comment' ? { color, fontStyle: 'italic' } : { color },
    ]),
  );
}

/** The highlighted tree as React elements: text stays text, never HTML. */
function render(node: HastNode, styles: Record<string, CSSProperties>, key: string): ReactNode {
  if (node.type === 'text') return node.value;
  const children = node.children.map((child, i) => render(child, styles, `${key}.${i}`));
  if (node.type === 'root') return children;
  const classes = Array.isArray(node.properties?.className) ? (node.properties.className as string[]) : [];
  const style = Object.assign({}, ...classes.map((c) => styles[c] ?? {})) as CSSProperties;
  return (
    <span key={key} className={classes.join(' ')} style={style}>
      {children}
    </span>
  );
}

/** An imported rule's YAML, read-only and highlighted (issue 30). */
export function RuleYaml({ source }: { source: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { mode } = useThemeMode();
  const styles = useMemo(() => palette(mode), [mode]);
  const tree = useMemo(() => lowlight.highlight('yaml', source) as HastNode, [source]);
  return (
    <Typography.Paragraph style={{ marginBottom: 0 }}>
      <pre
        tabIndex={0}
        aria-label={t('rules.origin.yamlLabel')}
        data-testid="rule-yaml"
        style={{
          margin: 0,
          maxHeight: '40rem',
          overflow: 'auto',
          padding: token.paddingSM,
          fontSize: token.fontSizeSM,
          lineHeight: 1.5,
          color: token.colorText,
          background: token.colorFillQuaternary,
          border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadius,
          whiteSpace: 'pre',
        }}
      >
        <code>{render(tree, styles, 'y')}</code>
      </pre>
    </Typography.Paragraph>
  );
}
