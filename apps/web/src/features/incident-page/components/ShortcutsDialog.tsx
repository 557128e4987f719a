import { Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { STAFF_SHORTCUT_KEYS, type StaffShortcutHandlers } from '../hooks/useStaffShortcuts.ts';
import '../i18n/texts.ts';

export type ShortcutsDialogProps = {
  open: boolean;
  onClose: () => void;
};

/** The list of the incident page's staff shortcuts (`?`). */
export function ShortcutsDialog({ open, onClose }: ShortcutsDialogProps) {
  const { t } = useTranslation();
  const names = Object.keys(STAFF_SHORTCUT_KEYS) as (keyof StaffShortcutHandlers)[];
  return (
    <Modal
      open={open}
      title={t('incidentPage.shortcuts.title')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid="shortcuts-close">
          {t('incidentPage.shortcuts.close')}
        </Button>
      }
      destroyOnHidden
      modalRender={(node) => <div data-testid="shortcuts-dialog">{node}</div>}
    >
      <Typography.Paragraph type="secondary">{t('incidentPage.shortcuts.hint')}</Typography.Paragraph>
      <Descriptions
        column={1}
        size="small"
        items={names.map((name) => ({
          key: name,
          label: <Typography.Text keyboard>{STAFF_SHORTCUT_KEYS[name]}</Typography.Text>,
          children: t(`incidentPage.shortcuts.${name}`),
        }))}
      />
    </Modal>
  );
}
