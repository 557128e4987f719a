import { PlusOutlined } from '@ant-design/icons';
import {
  ALERT_PLATFORMS,
  ALERT_PRIORITIES,
  ALERT_SEVERITIES,
  type AlertPlatform,
  type AlertPriority,
  type AlertSeverity,
} from '@soc/contracts';
import { Button, Col, Form, Input, Modal, Row, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorDescription, mapFieldErrors } from '@/shared/api/index.ts';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';
import { notifySuccess, notifyWarning } from '@/shared/ui/notifications.tsx';
import { useAddAlertsMutation } from '../api/useAddAlertsMutation.ts';
import '../i18n/texts.ts';

type AlertValues = {
  title?: string;
  severity?: AlertSeverity;
  platform?: AlertPlatform;
  priority: AlertPriority;
  rule?: string;
  description?: string;
};
type AlertField = keyof AlertValues;
const ALERT_FIELDS: readonly AlertField[] = [
  'title',
  'severity',
  'platform',
  'priority',
  'rule',
  'description',
];
/** `alerts.0.title` → `title`: the form holds the one alert it sends. */
const FIELD_BY_SERVER_NAME = Object.fromEntries(
  ALERT_FIELDS.map((field) => [`alerts.0.${field}`, field]),
) as Record<string, AlertField>;

export type StaffAddAlertProps = { incidentKey: number };

/**
 * Staff add an alert to the incident (POST /analyst/incidents/{key}/alerts/): the fields an alert
 * needs (title, severity, platform) and a few more. The alert's uuid and the request's
 * idempotency key are made when the form opens, so a retry stores the alert once.
 */
export function StaffAddAlert({ incidentKey }: StaffAddAlertProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [ids, setIds] = useState(() => ({ uuid: crypto.randomUUID(), key: crypto.randomUUID() }));
  const [form] = Form.useForm<AlertValues>();
  const mutation = useAddAlertsMutation(incidentKey);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const required = { required: true, message: t('incidentPage.staffAdd.required') };
  const third = { xs: 24, md: 8 };

  const submit = async (values: AlertValues) => {
    setFormErrors([]);
    try {
      const result = await mutation.mutateAsync({
        idempotencyKey: ids.key,
        body: {
          alerts: [
            {
              uuid: ids.uuid,
              title: (values.title ?? '').trim(),
              severity: values.severity!,
              platform: values.platform!,
              priority: values.priority,
              rule: (values.rule ?? '').trim(),
              description: (values.description ?? '').trim(),
            },
          ],
        },
      });
      if (result.conflicts.length > 0) notifyWarning({ title: t('incidentPage.staffAdd.alertConflict') });
      else if (result.created.length === 0)
        notifySuccess({ title: t('incidentPage.staffAdd.alertExisting') });
      else notifySuccess({ title: t('incidentPage.staffAdd.alertAdded') });
      setOpen(false);
    } catch (error) {
      const fieldErrors = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
      if (fieldErrors) {
        // the server names the list (`alerts`), which is this one alert: no field prefix
        const { alerts, ...others } = fieldErrors;
        const mapped = mapFieldErrors(others, FIELD_BY_SERVER_NAME);
        form.setFields(mapped.fields);
        setFormErrors([...(alerts ?? []), ...mapped.formErrors]);
        return;
      }
      setFormErrors([
        t('incidentPage.staffAdd.alertFailed'),
        ...(error instanceof ApiError ? errorDescription(error) : []),
      ]);
    }
  };

  return (
    <>
      <div>
        <Button
          icon={<PlusOutlined aria-hidden />}
          onClick={() => setOpen(true)}
          data-testid="incident-alert-add"
        >
          {t('incidentPage.staffAdd.addAlert')}
        </Button>
      </div>
      <Modal
        open={open}
        title={t('incidentPage.staffAdd.addAlertTitle')}
        onCancel={mutation.isPending ? undefined : () => setOpen(false)}
        okText={t('incidentPage.staffAdd.add')}
        cancelText={t('incidentPage.staffAdd.cancel')}
        okButtonProps={{ loading: mutation.isPending, 'data-testid': 'incident-alert-save' }}
        cancelButtonProps={{ disabled: mutation.isPending }}
        onOk={() => form.submit()}
        afterClose={() => {
          form.resetFields();
          setFormErrors([]);
          // the next alert is another one
          setIds({ uuid: crypto.randomUUID(), key: crypto.randomUUID() });
        }}
        width="min(40rem, 90vw)"
        destroyOnHidden
        modalRender={(node) => <div data-testid="incident-alert-modal">{node}</div>}
      >
        <Form<AlertValues>
          form={form}
          layout="vertical"
          disabled={mutation.isPending}
          initialValues={{ priority: 'medium' }}
          onFinish={(values) => void submit(values)}
        >
          <Form.Item
            name="title"
            label={t('incidentPage.staffAdd.alertTitle')}
            rules={[{ ...required, whitespace: true }, { max: 500 }]}
          >
            <Input autoComplete="off" data-testid="incident-alert-title" />
          </Form.Item>
          <Row gutter={8}>
            <Col {...third}>
              <Form.Item name="severity" label={t('incidentPage.staffAdd.severity')} rules={[required]}>
                <Select
                  data-testid="incident-alert-severity"
                  options={ALERT_SEVERITIES.map((severity) => ({
                    value: severity,
                    label: t(`incidentPage.staffAdd.severities.${severity}`),
                  }))}
                />
              </Form.Item>
            </Col>
            <Col {...third}>
              <Form.Item name="platform" label={t('incidentPage.staffAdd.platform')} rules={[required]}>
                <Select
                  data-testid="incident-alert-platform"
                  options={ALERT_PLATFORMS.map((platform) => ({
                    value: platform,
                    label: t(`incidentPage.staffAdd.platforms.${platform}`),
                  }))}
                />
              </Form.Item>
            </Col>
            <Col {...third}>
              <Form.Item name="priority" label={t('incidentPage.staffAdd.alertPriority')}>
                <Select
                  data-testid="incident-alert-priority"
                  options={ALERT_PRIORITIES.map((priority) => ({
                    value: priority,
                    label: t(`incidentPriority.${priority}`),
                  }))}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="rule" label={t('incidentPage.staffAdd.rule')} rules={[{ max: 255 }]}>
            <Input autoComplete="off" data-testid="incident-alert-rule" />
          </Form.Item>
          <Form.Item name="description" label={t('incidentPage.staffAdd.alertDescription')}>
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 8 }}
              maxLength={20_000}
              data-testid="incident-alert-description"
            />
          </Form.Item>
          <FormErrorAlert messages={formErrors} testId="incident-alert-errors" />
        </Form>
      </Modal>
    </>
  );
}
