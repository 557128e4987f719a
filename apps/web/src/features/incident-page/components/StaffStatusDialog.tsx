import type { IncidentCard } from '@soc/contracts';
import { Button, Flex, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, mapFieldErrors, notifyApiError } from '@/shared/api/index.ts';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';
import { notifyError, notifySuccess } from '@/shared/ui/notifications.tsx';
import { useStaffStatusMutation } from '../api/useStaffStatusMutation.ts';
import '../i18n/texts.ts';

/** The SOC's own outcomes of an incident (design §5). */
export type StaffAction = 'complete' | 'cancel';

/** The longest comment the server takes. */
export const STAFF_COMMENT_MAX = 20_000;

interface StatusValues {
  comment?: string;
}

const FIELD_BY_SERVER_NAME: Record<string, 'comment'> = { comment: 'comment' };

export type StaffStatusDialogProps = {
  incident: IncidentCard;
  /** The open dialog's action, or null when closed. */
  action: StaffAction | null;
  onClose: () => void;
};

/**
 * Complete or cancel as the SOC (POST /analyst/incidents/{key}/status/): a required comment
 * (Markdown), shown to the customer as the SOC's message. On success a toast, and the card,
 * its actions and the comments refresh; server field messages go under the field, the rest
 * into the form and the failure toast, as in the customer's dialogs.
 */
export function StaffStatusDialog({ incident, action, onClose }: StaffStatusDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<StatusValues>();
  const mutation = useStaffStatusMutation(incident.key);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  // Keeps the last action while the dialog animates out.
  const [shown, setShown] = useState<StaffAction>(action ?? 'complete');
  if (action !== null && action !== shown) setShown(action);

  const submit = async (values: StatusValues) => {
    setFormErrors([]);
    try {
      await mutation.mutateAsync({
        status: shown === 'complete' ? 'completed' : 'canceled',
        comment: (values.comment ?? '').trim(),
      });
    } catch (error) {
      const fieldErrors = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
      if (!fieldErrors) {
        notifyApiError(error, t(`incidentPage.staffStatus.failed.${shown}`));
        return;
      }
      const mapped = mapFieldErrors(fieldErrors, FIELD_BY_SERVER_NAME);
      form.setFields(mapped.fields);
      setFormErrors(mapped.formErrors);
      notifyError({
        title: t(`incidentPage.staffStatus.failed.${shown}`),
        description: [...mapped.fields.flatMap((field) => field.errors), ...mapped.formErrors],
      });
      return;
    }
    notifySuccess({ title: t(`incidentPage.staffStatus.success.${shown}`) });
    onClose();
  };

  return (
    <Modal
      open={action !== null}
      title={t(`incidentPage.staffStatus.title.${shown}`, { key: incident.key })}
      onCancel={mutation.isPending ? undefined : onClose}
      footer={
        <Flex justify="flex-end" gap="small" wrap>
          <Button onClick={onClose} disabled={mutation.isPending} data-testid="staff-status-back">
            {t('incidentPage.staffStatus.back')}
          </Button>
          <Button
            type="primary"
            danger={shown === 'cancel'}
            loading={mutation.isPending}
            onClick={() => form.submit()}
            data-testid="staff-status-submit"
          >
            {t(`incidentPage.staffStatus.submit.${shown}`)}
          </Button>
        </Flex>
      }
      destroyOnHidden
      afterClose={() => {
        form.resetFields();
        setFormErrors([]);
      }}
      modalRender={(node) => (
        <div data-testid="staff-status-dialog" data-action={shown}>
          {node}
        </div>
      )}
    >
      <Typography.Paragraph type="secondary">
        {t(`incidentPage.staffStatus.hint.${shown}`)}
      </Typography.Paragraph>
      <Form<StatusValues>
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        disabled={mutation.isPending}
      >
        <Form.Item
          label={t('incidentPage.staffStatus.comment')}
          name="comment"
          rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
          style={{ marginBottom: 0 }}
        >
          <Input.TextArea
            rows={5}
            maxLength={STAFF_COMMENT_MAX}
            showCount
            data-testid="staff-status-comment"
            autoFocus
          />
        </Form.Item>
        <FormErrorAlert messages={formErrors} testId="staff-status-form-errors" />
      </Form>
    </Modal>
  );
}
