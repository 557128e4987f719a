import type { Language, NotificationEvent, NotificationPreferences, NotificationScope } from '@soc/contracts';
import { NOTIFICATION_EVENTS } from '@soc/contracts';
import { Alert, Button, Card, Checkbox, Flex, Form, Radio, Select, Skeleton, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useNotificationPreferencesQuery } from '../api/useNotificationPreferencesQuery.ts';
import { useSaveNotificationPreferencesMutation } from '../api/useSaveNotificationPreferencesMutation.ts';

/** /profile/notifications: which events e-mail the user, about what, in which language (issue 13). */
export function NotificationSettingsPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  useDocumentTitle(t('settings.notifications.title'));
  const query = useNotificationPreferencesQuery();
  const save = useSaveNotificationPreferencesMutation();
  const [form] = Form.useForm<NotificationPreferences>();

  const onFinish = (values: NotificationPreferences) =>
    save.mutate(values, {
      onSuccess: () => notifySuccess({ title: t('settings.notifications.saved') }),
    });

  return (
    <Flex vertical gap="middle" style={{ maxWidth: token.screenMD }} data-testid="notification-settings-page">
      <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3 }}>
        {t('settings.notifications.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('settings.notifications.intro')}
      </Typography.Paragraph>
      {query.isPending && <Skeleton active data-testid="notification-settings-loading" />}
      {query.isError && (
        <Alert
          type="error"
          showIcon
          title={t('settings.notifications.loadFailed')}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      {query.data && (
        <Card>
          {query.data.email ? (
            <Typography.Paragraph data-testid="notification-settings-email">
              {t('settings.notifications.email', { email: query.data.email })}
            </Typography.Paragraph>
          ) : (
            <Alert
              type="warning"
              showIcon
              title={t('settings.notifications.noEmail')}
              style={{ marginBottom: token.margin }}
            />
          )}
          <Form<NotificationPreferences>
            form={form}
            layout="vertical"
            initialValues={{
              events: query.data.events,
              scope: query.data.scope,
              language: query.data.language,
            }}
            onFinish={onFinish}
          >
            <Form.Item name="events" label={t('settings.notifications.events')}>
              <Checkbox.Group data-testid="notification-settings-events">
                <Flex vertical gap="small">
                  {NOTIFICATION_EVENTS.map((event: NotificationEvent) => (
                    <Checkbox key={event} value={event} data-testid={`notification-event-${event}`}>
                      {t(`settings.notifications.event.${event}`)}
                    </Checkbox>
                  ))}
                </Flex>
              </Checkbox.Group>
            </Form.Item>
            <Form.Item name="scope" label={t('settings.notifications.scope')}>
              <Radio.Group data-testid="notification-settings-scope">
                <Flex vertical gap="small">
                  <Radio value={'assigned' satisfies NotificationScope}>
                    {t('settings.notifications.scopeAssigned')}
                  </Radio>
                  <Radio value={'all' satisfies NotificationScope} data-testid="notification-scope-all">
                    {t('settings.notifications.scopeAll')}
                  </Radio>
                </Flex>
              </Radio.Group>
            </Form.Item>
            <Form.Item name="language" label={t('settings.notifications.language')}>
              <Select<Language>
                style={{ maxWidth: token.screenXS / 2 }}
                data-testid="notification-settings-language"
                options={[
                  { value: 'ru', label: 'Русский' },
                  { value: 'en', label: 'English' },
                ]}
              />
            </Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              loading={save.isPending}
              data-testid="notification-settings-save"
            >
              {t('settings.notifications.save')}
            </Button>
          </Form>
        </Card>
      )}
    </Flex>
  );
}
