import {
  INCIDENT_PRIORITIES,
  INCIDENT_SUMMARY_MAX,
  type IncidentCard,
  type IncidentPriority,
} from '@soc/contracts';
import { Button, Drawer, Flex, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, mapFieldErrors, notifyApiError, type FieldMessages } from '@/shared/api/index.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';
import { MarkdownEditor } from '@/shared/ui/markdown/MarkdownEditor.tsx';
import { IncidentPriorityTag } from '@/shared/ui/IncidentPriorityTag.tsx';
import { notifyError, notifySuccess } from '@/shared/ui/notifications.tsx';
import { useStaffUpdateMutation } from '../api/useStaffUpdateMutation.ts';
import { editChanges, editValuesOf, type EditValues } from '../lib/editChanges.ts';
import '../i18n/texts.ts';

/** Limits of AnalystIncidentUpdateSchema, checked before sending. */
const TEXT_MAX = 100_000;
const TAGS_MAX = 50;
const TAG_MAX = 64;

type EditField = keyof EditValues;
const FIELDS: readonly EditField[] = ['summary', 'description', 'recommendations', 'tags', 'priority'];

/** Server field names (`tags.3` for one tag) → the drawer's fields. */
function byField(errors: FieldMessages): FieldMessages {
  const result: FieldMessages = {};
  for (const [name, messages] of Object.entries(errors)) {
    const root = name.split('.')[0] ?? name;
    const field = (FIELDS as readonly string[]).includes(root) ? root : name;
    result[field] = [...(result[field] ?? []), ...messages];
  }
  return result;
}
const FIELD_BY_SERVER_NAME = Object.fromEntries(FIELDS.map((field) => [field, field])) as Record<
  string,
  EditField
>;

export type EditIncidentDrawerProps = {
  incident: IncidentCard;
  open: boolean;
  onClose: () => void;
};

/**
 * Staff edit the incident's summary, description, recommendations (Markdown, rendered by the
 * server), tags and priority (PATCH /analyst/incidents/{key}/ with only the changed fields).
 * Save waits for a change; the server's field messages go under their fields.
 */
export function EditIncidentDrawer({ incident, open, onClose }: EditIncidentDrawerProps) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const [form] = Form.useForm<EditValues>();
  const values = Form.useWatch([], form) as Partial<EditValues> | undefined;
  const mutation = useStaffUpdateMutation(incident.key);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const changes = values ? editChanges(incident, values) : null;

  const submit = async (submitted: EditValues) => {
    const body = editChanges(incident, submitted);
    if (!body) return;
    setFormErrors([]);
    try {
      await mutation.mutateAsync(body);
    } catch (error) {
      const fieldErrors = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
      if (!fieldErrors) {
        notifyApiError(error, t('incidentPage.edit.failed'));
        return;
      }
      const mapped = mapFieldErrors(byField(fieldErrors), FIELD_BY_SERVER_NAME);
      form.setFields(mapped.fields);
      setFormErrors(mapped.formErrors);
      notifyError({
        title: t('incidentPage.edit.failed'),
        description: [...mapped.fields.flatMap((field) => field.errors), ...mapped.formErrors],
      });
      return;
    }
    notifySuccess({ title: t('incidentPage.edit.saved') });
    onClose();
  };

  const required = { required: true, whitespace: true, message: t('validation.required') };
  // the Markdown fields preview through the server, as the card will show them
  const markdown = (testId: string, label: string) => (
    <MarkdownEditor label={label} maxLength={TEXT_MAX} rows={6} testId={testId} />
  );

  return (
    <Drawer
      open={open}
      onClose={mutation.isPending ? undefined : onClose}
      title={t('incidentPage.edit.title', { key: incident.key })}
      size={isPhone ? '100%' : 'large'}
      destroyOnHidden
      afterOpenChange={(next) => {
        if (!next) setFormErrors([]);
      }}
      data-testid="edit-drawer"
      footer={
        <Flex justify="flex-end" gap="small">
          <Button onClick={onClose} disabled={mutation.isPending} data-testid="edit-cancel">
            {t('common.cancel')}
          </Button>
          <Button
            type="primary"
            onClick={() => form.submit()}
            loading={mutation.isPending}
            disabled={!changes}
            data-testid="edit-save"
          >
            {t('incidentPage.edit.save')}
          </Button>
        </Flex>
      }
    >
      <Form<EditValues>
        form={form}
        layout="vertical"
        initialValues={editValuesOf(incident)}
        onFinish={(submitted) => void submit(submitted)}
        disabled={mutation.isPending}
      >
        <Form.Item label={t('incidentPage.edit.summary')} name="summary" rules={[required]}>
          <Input maxLength={INCIDENT_SUMMARY_MAX} showCount data-testid="edit-summary" />
        </Form.Item>
        <Form.Item label={t('incidentPage.edit.priority')} name="priority">
          <Select<IncidentPriority>
            data-testid="edit-priority"
            options={INCIDENT_PRIORITIES.map((priority) => ({
              value: priority,
              label: <IncidentPriorityTag priority={priority} />,
            }))}
          />
        </Form.Item>
        <Form.Item
          label={t('incidentPage.edit.tags')}
          name="tags"
          rules={[
            {
              validator: (_, tags: string[] | undefined) => {
                if ((tags ?? []).length > TAGS_MAX)
                  return Promise.reject(new Error(t('incidentPage.edit.tooManyTags', { max: TAGS_MAX })));
                if ((tags ?? []).some((tag) => tag.trim().length > TAG_MAX))
                  return Promise.reject(new Error(t('incidentPage.edit.tagTooLong', { max: TAG_MAX })));
                return Promise.resolve();
              },
            },
          ]}
        >
          <Select<string[]>
            mode="tags"
            open={false}
            tokenSeparators={[',']}
            placeholder={t('incidentPage.edit.tagsPlaceholder')}
            aria-label={t('incidentPage.edit.tags')}
            data-testid="edit-tags"
          />
        </Form.Item>
        <Form.Item label={t('incidentPage.edit.description')} name="description">
          {markdown('edit-description', t('incidentPage.edit.description'))}
        </Form.Item>
        <Form.Item label={t('incidentPage.edit.recommendations')} name="recommendations">
          {markdown('edit-recommendations', t('incidentPage.edit.recommendations'))}
        </Form.Item>
        <FormErrorAlert messages={formErrors} testId="edit-form-errors" />
      </Form>
    </Drawer>
  );
}
