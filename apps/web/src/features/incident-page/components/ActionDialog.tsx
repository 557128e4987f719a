import type { IncidentCard } from '@soc/contracts';
import { Button, Checkbox, Flex, Form, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, mapFieldErrors, notifyApiError } from '@/shared/api/index.ts';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';
import { notifyError, notifySuccess } from '@/shared/ui/notifications.tsx';
import { useIncidentActionMutation, type CustomerAction } from '../api/useIncidentActionMutation.ts';
import { useResolutionsQuery } from '../api/useResolutionsQuery.ts';
import '../i18n/texts.ts';

/** Values of the confirm, close and reopen dialogs (product §A3, §A5). */
interface ActionValues {
  comment?: string;
  resolution?: number;
  assignToMe?: boolean;
}

type ActionField = keyof ActionValues;

/** Server payload fields → dialog fields. */
const FIELD_BY_SERVER_NAME: Record<string, ActionField> = {
  comment: 'comment',
  resolution_name: 'resolution',
  change_customer_assignee: 'assignToMe',
};

export type ActionDialogProps = {
  incident: IncidentCard;
  /** The open dialog's action, or null when closed. */
  action: CustomerAction | null;
  onClose: () => void;
  /**
   * Provider staff (who may reopen): no "Assign to myself", which names the customer assignee,
   * a user of the incident's system, and which the server refuses for anyone else.
   */
  staff?: boolean;
};

/**
 * The dialog of a workflow action: a required comment, for close a required resolution (TP or
 * FP of the incident's issue type), and "Assign to myself". On success it shows the toast of
 * product §A8 and closes while the card and the action list refresh; server field messages
 * show under their fields.
 */
export function ActionDialog({ incident, action, onClose, staff = false }: ActionDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ActionValues>();
  const mutation = useIncidentActionMutation(incident.key);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  // Keeps the last action while the dialog animates out.
  const [shown, setShown] = useState<CustomerAction>(action ?? 'confirm');
  if (action !== null && action !== shown) setShown(action);
  const resolutions = useResolutionsQuery(incident.issuetype_ref.id, shown === 'close' && action !== null);

  const required = { required: true, whitespace: true, message: t('validation.required') };

  const submit = async (values: ActionValues) => {
    setFormErrors([]);
    const common = {
      comment: (values.comment ?? '').trim(),
      change_customer_assignee: values.assignToMe ?? false,
    };
    try {
      if (shown === 'close') {
        await mutation.mutateAsync({
          action: 'close',
          payload: { ...common, resolution_name: values.resolution ?? 0 },
        });
      } else {
        await mutation.mutateAsync({ action: shown, payload: common });
      }
    } catch (error) {
      const fieldErrors = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
      if (!fieldErrors) {
        notifyApiError(error, t(`incidentPage.actions.failed.${shown}`));
        return;
      }
      const mapped = mapFieldErrors(fieldErrors, FIELD_BY_SERVER_NAME);
      form.setFields(mapped.fields);
      setFormErrors(mapped.formErrors);
      notifyError({
        title: t(`incidentPage.actions.failed.${shown}`),
        description: [...mapped.fields.flatMap((field) => field.errors), ...mapped.formErrors],
      });
      return;
    }
    notifySuccess({ title: t(`incidentPage.actions.success.${shown}`) });
    onClose();
  };

  return (
    <Modal
      open={action !== null}
      title={t(`incidentPage.actions.title.${shown}`, { key: incident.key })}
      onCancel={mutation.isPending ? undefined : onClose}
      footer={
        <Flex justify="flex-end" gap="small">
          <Button onClick={onClose} disabled={mutation.isPending} data-testid="action-cancel">
            {t('common.cancel')}
          </Button>
          <Button
            type="primary"
            loading={mutation.isPending}
            onClick={() => form.submit()}
            data-testid="action-submit"
          >
            {t(`incidentPage.actions.submit.${shown}`)}
          </Button>
        </Flex>
      }
      destroyOnHidden
      afterClose={() => {
        form.resetFields();
        setFormErrors([]);
      }}
      modalRender={(node) => (
        <div data-testid="action-dialog" data-action={shown}>
          {node}
        </div>
      )}
    >
      <Typography.Paragraph type="secondary">{t(`incidentPage.actions.hint.${shown}`)}</Typography.Paragraph>
      <Form<ActionValues>
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        disabled={mutation.isPending}
      >
        {shown === 'close' && (
          <Form.Item
            label={t('incidentPage.actions.resolution')}
            name="resolution"
            rules={[{ required: true, message: t('validation.required') }]}
          >
            <Select<number>
              data-testid="action-resolution"
              placeholder={t('incidentPage.actions.resolutionPlaceholder')}
              loading={resolutions.isPending}
              options={(resolutions.data ?? []).map((option) => ({
                value: option.id,
                label: `${option.title} (${t(`incidentResolution.${option.kind}`)})`,
              }))}
            />
          </Form.Item>
        )}
        <Form.Item label={t('incidentPage.actions.comment')} name="comment" rules={[required]}>
          <Input.TextArea rows={4} data-testid="action-comment" autoFocus />
        </Form.Item>
        {!staff && (
          <Form.Item name="assignToMe" valuePropName="checked" style={{ marginBottom: 0 }}>
            <Checkbox data-testid="action-assign-to-me">{t('incidentPage.actions.assignToMe')}</Checkbox>
          </Form.Item>
        )}
        <FormErrorAlert messages={formErrors} testId="action-form-errors" />
      </Form>
    </Modal>
  );
}
