import { Flex, theme, Typography } from 'antd';
import type { ReactNode } from 'react';

export type FilterFieldProps = {
  /** Id of the control, so that the visible label names it. */
  htmlFor: string;
  label: string;
  children: ReactNode;
};

/** A filter control under its visible label. */
export function FilterField({ htmlFor, label, children }: FilterFieldProps) {
  const { token } = theme.useToken();
  return (
    <Flex vertical gap={token.marginXXS} style={{ minWidth: 0 }}>
      <label htmlFor={htmlFor}>
        <Typography.Text type="secondary">{label}</Typography.Text>
      </label>
      {children}
    </Flex>
  );
}
