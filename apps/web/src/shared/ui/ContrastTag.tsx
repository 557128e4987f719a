import { Tag, theme, type TagProps } from 'antd';

export type ContrastTagProps = Pick<TagProps, 'color' | 'variant' | 'children'> & {
  [data: `data-${string}`]: string | undefined;
};

/**
 * A tag in an antd palette colour whose text keeps the theme's text colour: the palette colours the
 * border and fill, but its light shades (orange, gold) would not give the text enough contrast
 * (WCAG AA) in either theme.
 */
export function ContrastTag({ children, ...props }: ContrastTagProps) {
  const { token } = theme.useToken();
  return (
    <Tag {...props} style={{ marginInlineEnd: 0, color: token.colorText }}>
      {children}
    </Tag>
  );
}
