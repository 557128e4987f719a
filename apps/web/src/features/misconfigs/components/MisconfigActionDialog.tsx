import type { MisconfigAction } from '@soc/contracts';
import { MISCONFIG_ACTION_RULES, MISCONFIG_COMMENT_MAX } from '@soc/contracts';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, mapFieldErrors, notifyApiError } from '@/shared/api/index.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useMisconfigActionMutation } from '../api/useMisconfigActionMutation.ts';

export type MisconfigActionDialogProps = {
  misconfigId: number;
  /** The action to confirm; null: closed. */
  action: MisconfigAction | null;
  onClose: () => void;
};

type Values = { comment?: string };

/**
 * Confirms a status change of a recommendation with a comment (required to accept a risk or
 * reopen, optional to mark it fixed); the change is recorded in the audit log on the server.
 */
export function MisconfigActionDialog({ misconfigId, action, onClose }: MisconfigActionDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const mutation = useMisconfigActionMutation(misconfigId);
  const required = action ? MISCONFIG_ACTION_RULES[action].commentRequired : false;

  const submit = async ({ comment }: Values) => {
    if (!action) return;
    try {
      await mutation.mutateAsync({ action, comment: (comment ?? '').trim() });
    } catch (error) {
      const fields = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
      if (fields?.comment) form.setFields(mapFieldErrors(fields, { comment: 'comment' as const }).fields);
      notifyApiError(error, t('misconfigs.actions.failed'));
      return;
    }
    notifySuccess({ title: t(`misconfigs.actions.done.${action}`) });
    onClose();
  };

  return (
    <Modal
      open={action !== null}
      title={action ? t(`misconfigs.actions.${action}`) : ''}
      okText={t('misconfigs.actions.confirm')}
      cancelText={t('misconfigs.actions.cancel')}
      onOk={() => form.submit()}
      onCancel={mutation.isPending ? undefined : onClose}
      okButtonProps={{ loading: mutation.isPending, 'data-testid': 'misconfig-action-confirm' }}
      afterClose={() => form.resetFields()}
      destroyOnHidden
      modalRender={(node) => <div data-testid="misconfig-action-dialog">{node}</div>}
    >
      <Form<Values> form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item
          name="comment"
          label={required ? t('misconfigs.actions.comment') : t('misconfigs.actions.commentOptional')}
          rules={[
            { required, whitespace: true, message: t('misconfigs.actions.commentRequired') },
            { max: MISCONFIG_COMMENT_MAX },
          ]}
        >
          <Input.TextArea rows={4} data-testid="misconfig-action-comment" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
