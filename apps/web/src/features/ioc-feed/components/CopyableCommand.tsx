import { CopyOutlined } from '@ant-design/icons';
import { Button, Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '@/shared/ui/notifications.tsx';

export interface CopyableCommandProps {
  /** The text shown and copied (a URL, a command). */
  text: string;
  /** Names the text and its button for tests and assistive technology. */
  testId: string;
  label: string;
}

/** A URL or command in a code block with a Copy button that confirms with a toast. */
export function CopyableCommand({ text, testId, label }: CopyableCommandProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => notifySuccess({ title: t('iocFeed.copied'), key: 'ioc-feed-copy' }),
      () => notifyError({ title: t('iocFeed.copyFailed'), key: 'ioc-feed-copy' }),
    );
  return (
    <Flex gap="small" align="start">
      <Typography.Text
        code
        data-testid={testId}
        aria-label={label}
        style={{ flex: 1, minWidth: 0, wordBreak: 'break-all', fontSize: token.fontSizeSM }}
      >
        {text}
      </Typography.Text>
      <Button
        size="small"
        icon={<CopyOutlined aria-hidden />}
        onClick={() => void copy()}
        data-testid={`${testId}-copy`}
        aria-label={`${t('iocFeed.copy')}: ${label}`}
      >
        {t('iocFeed.copy')}
      </Button>
    </Flex>
  );
}
