import { theme, Typography } from 'antd';
import type { GlobalToken } from 'antd';
import yaml from 'highlight.js/lib/languages/yaml';
import { createLowlight } from 'lowlight';
import type { CSSProperties, ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

const lowlight = createLowlight({ yaml });

type HastNode =
  | { type: 'text'; value: string }
  | { type: 'element'; properties?: { className?: unknown }; children: HastNode[] }
  | { type: 'root'; children: HastNode[] };

/** Colours of highlight.js's YAML classes from the theme's tokens (light and dark alike). */
function palette(token: GlobalToken): Record<string, CSSProperties> {
  return {
    'hljs-attr': { color: token.colorPrimaryText },
    'hljs-string': { color: token.colorSuccessText },
    'hljs-number': { color: token.colorWarningText },
    'hljs-literal': { color: token.colorWarningText },
    'hljs-comment': { color: token.colorTextTertiary, fontStyle: 'italic' },
    'hljs-bullet': { color: token.colorErrorText },
    'hljs-meta': { color: token.colorTextSecondary },
    'hljs-type': { color: token.colorInfoText },
    'hljs-punctuation': { color: token.colorTextSecondary },
  };
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
  const styles = useMemo(() => palette(token), [token]);
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
