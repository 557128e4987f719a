import { Flex, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import '../i18n/texts.ts';

export type ShortcutsDialogProps = { open: boolean; onClose: () => void };

/** The list of the queue's keyboard shortcuts (`?`). */
export function ShortcutsDialog({ open, onClose }: ShortcutsDialogProps) {
  const { t } = useTranslation();
  const rows = [
    ['j', t('socQueue.shortcuts.next')],
    ['k', t('socQueue.shortcuts.previous')],
    ['Enter', t('socQueue.shortcuts.enter')],
    ['a', t('socQueue.shortcuts.assign')],
    ['?', t('socQueue.shortcuts.help')],
  ] as const;
  return (
    <Modal open={open} title={t('socQueue.shortcuts.title')} onCancel={onClose} footer={null} destroyOnHidden>
      <Flex vertical gap="small" data-testid="soc-queue-shortcuts">
        {rows.map(([key, text]) => (
          <Flex key={key} gap="middle" align="baseline">
            <Typography.Text keyboard style={{ minWidth: '4rem' }}>
              {key}
            </Typography.Text>
            <Typography.Text>{text}</Typography.Text>
          </Flex>
        ))}
      </Flex>
    </Modal>
  );
}
