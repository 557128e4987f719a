import { ALERT_BULK_MAX } from '@soc/contracts';
import { LinkOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Form, InputNumber, Modal, theme, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useAttachAlertsMutation } from '../api/useAttachAlertsMutation.ts';
import '../i18n/texts.ts';

/** Where the SOC registers an incident; `?alerts=` names the alerts it starts from. */
export const NEW_INCIDENT_PATH = '/soc/incidents/new';

export type AlertBulkBarProps = {
  /** The selected alerts' uuids. */
  selected: readonly string[];
  onClear: () => void;
};

/**
 * Staff's actions on the selected alerts (design §9): attach them to an existing incident, or
 * open the new-incident form with them.
 */
export function AlertBulkBar({ selected, onClear }: AlertBulkBarProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [attachOpen, setAttachOpen] = useState(false);
  const none = selected.length === 0;
  return (
    <Flex
      gap="small"
      align="center"
      wrap
      data-testid="alerts-bulk"
      style={{
        padding: token.paddingXS,
        borderRadius: token.borderRadiusLG,
        background: token.colorFillQuaternary,
      }}
    >
      <Typography.Text data-testid="alerts-selected" aria-live="polite">
        {none
          ? t('alerts.bulk.hint', { max: ALERT_BULK_MAX })
          : t('alerts.bulk.selected', { count: selected.length })}
      </Typography.Text>
      <Button
        icon={<LinkOutlined aria-hidden />}
        disabled={none}
        onClick={() => setAttachOpen(true)}
        data-testid="alerts-bulk-attach"
      >
        {t('alerts.bulk.attach')}
      </Button>
      <Button
        icon={<PlusOutlined aria-hidden />}
        disabled={none}
        onClick={() => void navigate(`${NEW_INCIDENT_PATH}?alerts=${selected.join(',')}`)}
        data-testid="alerts-bulk-create"
      >
        {t('alerts.bulk.create')}
      </Button>
      {!none && (
        <Button type="text" onClick={onClear} data-testid="alerts-bulk-clear">
          {t('alerts.bulk.clear')}
        </Button>
      )}
      {attachOpen && (
        <AttachDialog
          selected={selected}
          onClose={() => setAttachOpen(false)}
          onDone={() => {
            setAttachOpen(false);
            onClear();
          }}
        />
      )}
    </Flex>
  );
}

type AttachDialogProps = { selected: readonly string[]; onClose: () => void; onDone: () => void };

/** Asks for the incident's key and attaches the selected alerts to it. */
function AttachDialog({ selected, onClose, onDone }: AttachDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ issue: number | null }>();
  const attach = useAttachAlertsMutation();
  const submit = ({ issue }: { issue: number | null }) => {
    if (issue === null) return;
    attach.mutate(
      { alerts: [...selected], issue },
      {
        onSuccess: (result) => {
          notifySuccess({ title: t('alerts.bulk.attached', { count: result.updated, key: issue }) });
          onDone();
        },
      },
    );
  };
  return (
    <Modal
      open
      title={t('alerts.bulk.attachTitle', { count: selected.length })}
      okText={t('alerts.bulk.attachOk')}
      cancelText={t('alerts.bulk.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={attach.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ issue: null }}>
        <Form.Item
          name="issue"
          label={t('alerts.bulk.incidentKey')}
          extra={t('alerts.bulk.incidentHint')}
          rules={[{ required: true, message: t('alerts.bulk.incidentRequired') }]}
        >
          <InputNumber<number>
            min={1}
            precision={0}
            controls={false}
            autoFocus
            style={{ width: '12rem' }}
            data-testid="alerts-bulk-incident"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
