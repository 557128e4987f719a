import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENTS,
  WEBHOOK_FORMATS,
  WEBHOOK_URL_MAX,
  type SystemOption,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookEvent,
  type WebhookFormat,
} from '@soc/contracts';
import { Checkbox, Flex, Form, Input, Modal, Select, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, mapFieldErrors } from '@/shared/api/index.ts';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useSaveWebhookMutation } from '../api/useSaveWebhookMutation.ts';

interface FormValues {
  system: number;
  url: string;
  events: WebhookEvent[];
  format: WebhookFormat;
  active: boolean;
  description: string;
  language: 'ru' | 'en';
  telegram_chat_id: string;
}

const FIELDS: Record<string, keyof FormValues> = {
  system: 'system',
  url: 'url',
  events: 'events',
  format: 'format',
  active: 'active',
  description: 'description',
  language: 'language',
  telegram_chat_id: 'telegram_chat_id',
};

export interface WebhookFormModalProps {
  /** The endpoint to edit; undefined: a new one. */
  endpoint: WebhookEndpoint | undefined;
  systems: SystemOption[];
  /** The system a new endpoint starts with. */
  defaultSystem: number | undefined;
  onClose: () => void;
  /** Called with the saved endpoint; a new one carries its secret. */
  onSaved: (saved: WebhookEndpointWithSecret | (WebhookEndpoint & { secret: null })) => void;
}

/** Add or edit an endpoint: system (new only), URL, events, format, language, on or off. */
export function WebhookFormModal({
  endpoint,
  systems,
  defaultSystem,
  onClose,
  onSaved,
}: WebhookFormModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const save = useSaveWebhookMutation();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const format = Form.useWatch('format', form);

  const submit = (values: FormValues) => {
    setFormErrors([]);
    const body = {
      url: values.url.trim(),
      events: values.events,
      format: values.format,
      active: values.active,
      description: values.description?.trim() ?? '',
      language: values.language,
      telegram_chat_id: values.format === 'telegram' ? (values.telegram_chat_id?.trim() ?? '') : '',
    };
    save.mutate(endpoint ? { id: endpoint.id, body } : { body: { ...body, system: values.system } }, {
      onSuccess: (saved) => {
        notifySuccess({ title: t('webhooks.saved') });
        onSaved(saved);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400 && error.fieldErrors) {
          const mapped = mapFieldErrors(error.fieldErrors, FIELDS);
          form.setFields(mapped.fields);
          setFormErrors(mapped.formErrors);
        } else {
          setFormErrors([
            error instanceof ApiError && error.detail ? error.detail : t('webhooks.saveFailed'),
          ]);
        }
      },
    });
  };

  return (
    <Modal
      open
      title={endpoint ? t('webhooks.editTitle') : t('webhooks.addTitle')}
      okText={t('webhooks.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'webhook-save' }}
      destroyOnHidden
      width={640}
    >
      <FormErrorAlert messages={formErrors} testId="webhook-form-error" />
      <Form<FormValues>
        form={form}
        layout="vertical"
        onFinish={submit}
        requiredMark={false}
        initialValues={
          endpoint
            ? {
                system: endpoint.system.id,
                url: endpoint.url,
                events: endpoint.events,
                format: endpoint.format,
                active: endpoint.active,
                description: endpoint.description,
                language: endpoint.language,
                telegram_chat_id: endpoint.telegram_chat_id,
              }
            : {
                system: defaultSystem ?? systems[0]?.id,
                events: ['incident.created'],
                format: 'generic',
                active: true,
                description: '',
                language: 'ru',
                telegram_chat_id: '',
              }
        }
      >
        <Form.Item name="system" label={t('webhooks.system')}>
          <Select
            disabled={Boolean(endpoint)}
            data-testid="webhook-system"
            options={systems.map((s) => ({ value: s.id, label: `${s.is_id} ${s.full_name}` }))}
          />
        </Form.Item>
        <Form.Item
          name="url"
          label={t('webhooks.url')}
          rules={[{ required: true, whitespace: true, message: t('webhooks.urlRequired') }]}
        >
          <Input maxLength={WEBHOOK_URL_MAX} placeholder="https://" data-testid="webhook-url" />
        </Form.Item>
        <Form.Item
          name="events"
          label={t('webhooks.events')}
          rules={[{ required: true, type: 'array', min: 1, message: t('webhooks.eventsRequired') }]}
        >
          <Checkbox.Group data-testid="webhook-events">
            <Flex vertical gap="small">
              {WEBHOOK_EVENTS.map((event) => (
                <Checkbox key={event} value={event} data-testid={`webhook-event-${event}`}>
                  {t(`webhooks.event.${event}`)}
                </Checkbox>
              ))}
            </Flex>
          </Checkbox.Group>
        </Form.Item>
        <Flex gap="middle">
          <Form.Item name="format" label={t('webhooks.format')} style={{ flex: 1 }}>
            <Select
              data-testid="webhook-format"
              options={WEBHOOK_FORMATS.map((f) => ({ value: f, label: t(`webhooks.formatName.${f}`) }))}
            />
          </Form.Item>
          <Form.Item name="language" label={t('webhooks.language')} style={{ flex: 1 }}>
            <Select
              options={(['ru', 'en'] as const).map((l) => ({
                value: l,
                label: t(`webhooks.languageName.${l}`),
              }))}
            />
          </Form.Item>
        </Flex>
        {format === 'telegram' && (
          <Form.Item
            name="telegram_chat_id"
            label={t('webhooks.telegramChatId')}
            rules={[{ required: true, whitespace: true, message: t('webhooks.telegramChatIdRequired') }]}
          >
            <Input maxLength={64} placeholder="-1001234567890" data-testid="webhook-telegram-chat" />
          </Form.Item>
        )}
        <Form.Item name="description" label={t('webhooks.description')}>
          <Input maxLength={WEBHOOK_DESCRIPTION_MAX} data-testid="webhook-description" />
        </Form.Item>
        <Form.Item name="active" label={t('webhooks.active')} valuePropName="checked">
          <Switch data-testid="webhook-active" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
