import { CloseCircleFilled, WarningFilled } from '@ant-design/icons';
import { Flex, theme } from 'antd';
import type { ReactNode } from 'react';

export type StatusScreenProps = {
  /** The icon and its colour: an error (red cross) or a warning (amber sign). */
  status: 'error' | 'warning';
  title: ReactNode;
  /** The explanation under the title. */
  subTitle?: ReactNode;
  /** Actions (buttons) under the text. */
  extra?: ReactNode;
  'data-testid'?: string;
  'data-failure'?: string;
};

/**
 * An icon, a title, a text and actions, centred: the look of antd's Result for the shell's
 * error screens. Result itself carries three SVG illustrations (about 33 KB) that every visitor
 * would download with the shell (issue 14); the pages may still use it.
 */
export function StatusScreen({ status, title, subTitle, extra, ...data }: StatusScreenProps) {
  const { token } = theme.useToken();
  const Icon = status === 'error' ? CloseCircleFilled : WarningFilled;
  return (
    <Flex
      vertical
      align="center"
      style={{ padding: `${token.paddingLG * 2}px ${token.paddingXL}px`, textAlign: 'center' }}
      {...data}
    >
      <Icon
        aria-hidden
        style={{
          // Result's icon size (72 px with the default tokens)
          fontSize: token.sizeXXL * 1.5,
          color: status === 'error' ? token.colorError : token.colorWarning,
          marginBottom: token.paddingLG,
        }}
      />
      <div
        style={{
          color: token.colorTextHeading,
          fontSize: token.fontSizeHeading3,
          lineHeight: token.lineHeightHeading3,
          marginBlock: token.marginXS,
        }}
      >
        {title}
      </div>
      {subTitle && (
        <div
          style={{
            color: token.colorTextDescription,
            fontSize: token.fontSize,
            lineHeight: token.lineHeight,
          }}
        >
          {subTitle}
        </div>
      )}
      {extra && <div style={{ marginTop: token.paddingLG }}>{extra}</div>}
    </Flex>
  );
}
