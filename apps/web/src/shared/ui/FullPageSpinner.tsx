import { Flex, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from './visuallyHidden.ts';

export type FullPageSpinnerProps = {
  /** Fill the viewport (app start) rather than the content area (a page loading). */
  fullHeight?: boolean;
};

/** The loading state of a whole page, announced to screen readers. */
export function FullPageSpinner({ fullHeight = true }: FullPageSpinnerProps) {
  const { t } = useTranslation();
  return (
    <Flex
      role="status"
      data-testid="page-spinner"
      justify="center"
      align="center"
      style={{ minHeight: fullHeight ? '100vh' : '40vh', width: '100%' }}
    >
      <Spin size="large" />
      <span style={visuallyHidden}>{t('common.loading')}</span>
    </Flex>
  );
}
