import type { IncidentListItem } from '@soc/contracts';
import { Button, Flex, Form, Modal, Progress, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, notifyApiError } from '@/shared/api/index.ts';
import { formatPercent } from '@/shared/lib/formatNumber.ts';
import { notifyError, notifySuccess } from '@/shared/ui/notifications.tsx';
import { useAddIncidentFilesMutation } from '../api/useAddIncidentFilesMutation.ts';
import { useCreateIncidentMutation } from '../api/useCreateIncidentMutation.ts';
import {
  mapCreateIncidentErrors,
  uploadErrorMessages,
  type CreateIncidentField,
} from '../lib/createIncidentErrors.ts';
import { CreateIncidentForm, toCreatePayload, type CreateIncidentValues } from './CreateIncidentForm.tsx';

export type CreateIncidentModalProps = {
  open: boolean;
  onClose: () => void;
  /** The incident has been registered (and its files uploaded, or the upload has failed). */
  onCreated?: (incident: IncidentListItem) => void;
};

const NO_FIELDS: ReadonlySet<CreateIncidentField> = new Set();

/**
 * Registers an incident (product §A2 "Create-incident modal", §4, §5, §8): POST incs/, then
 * the attachments with progress. The modal stays open, and cannot be dismissed, until both are
 * done; server field messages show under their fields.
 */
export function CreateIncidentModal({ open, onClose, onCreated }: CreateIncidentModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CreateIncidentValues>();
  const createMutation = useCreateIncidentMutation();
  const uploadMutation = useAddIncidentFilesMutation();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [serverErrorFields, setServerErrorFields] = useState<ReadonlySet<CreateIncidentField>>(NO_FIELDS);
  const [uploadPercent, setUploadPercent] = useState<number | null>(null);
  const busy = createMutation.isPending || uploadMutation.isPending;

  const showCreateError = (error: unknown) => {
    const fieldErrors = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
    if (!fieldErrors) {
      notifyApiError(error, t('incidents.create.failed'));
      return;
    }
    const mapped = mapCreateIncidentErrors(fieldErrors);
    form.setFields(mapped.fields);
    setServerErrorFields(new Set(mapped.fields.map((field) => field.name)));
    setFormErrors(mapped.formErrors);
  };

  const showUploadError = (error: unknown) => {
    const messages = uploadErrorMessages(error);
    if (messages.length === 0) {
      notifyApiError(error, t('incidents.create.attachmentsFailed'));
      return;
    }
    for (const message of messages)
      notifyError({ title: t('incidents.create.attachmentsFailed'), description: message });
  };

  const submit = async (values: CreateIncidentValues) => {
    setFormErrors([]);
    setServerErrorFields(NO_FIELDS);
    let incident: IncidentListItem;
    try {
      incident = await createMutation.mutateAsync(toCreatePayload(values));
    } catch (error) {
      showCreateError(error);
      return;
    }
    notifySuccess({ title: t('incidents.create.success', { key: incident.key }) });

    const files = values.attachments ?? [];
    if (files.length > 0) {
      setUploadPercent(0);
      try {
        await uploadMutation.mutateAsync({
          incidentKey: incident.key,
          files,
          onProgress: (progress) => setUploadPercent(progress.percent),
        });
        notifySuccess({ title: t('incidents.create.filesAdded') });
      } catch (error) {
        // The incident exists: report the files and close rather than invite a duplicate.
        showUploadError(error);
      } finally {
        setUploadPercent(null);
      }
    }
    onCreated?.(incident);
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('incidents.create.title')}
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      mask={{ closable: !busy }}
      keyboard={!busy}
      width="min(48rem, 90vw)"
      afterClose={() => {
        form.resetFields();
        setFormErrors([]);
        setServerErrorFields(NO_FIELDS);
      }}
      modalRender={(node) => <div data-testid="create-incident-modal">{node}</div>}
      footer={
        <Flex vertical gap="small">
          {uploadPercent !== null && (
            <Flex vertical data-testid="create-upload-progress">
              <Typography.Text>
                {t('incidents.create.uploading', { percent: formatPercent(uploadPercent) })}
              </Typography.Text>
              <Progress
                percent={uploadPercent}
                showInfo={false}
                aria-label={t('incidents.create.attachments')}
              />
            </Flex>
          )}
          <Flex justify="flex-end" gap="small">
            <Button onClick={onClose} disabled={busy} data-testid="create-cancel">
              {t('incidents.create.cancel')}
            </Button>
            <Button type="primary" loading={busy} onClick={() => form.submit()} data-testid="create-submit">
              {t('incidents.create.submit')}
            </Button>
          </Flex>
        </Flex>
      }
    >
      <CreateIncidentForm
        form={form}
        onSubmit={(values) => void submit(values)}
        disabled={busy}
        formErrors={formErrors}
        serverErrorFields={serverErrorFields}
      />
    </Modal>
  );
}
