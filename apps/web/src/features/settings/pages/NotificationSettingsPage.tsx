import type {
  Language,
  NotificationEvent,
  NotificationPreferences,
  NotificationScope,
  PortalEvent,
} from '@soc/contracts';
import { NOTIFICATION_EVENTS, PORTAL_EVENTS } from '@soc/contracts';
import { Fragment } from 'react';
import { Alert, Button, Card, Checkbox, Flex, Form, Radio, Select, Skeleton, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useNotificationPreferencesQuery } from '../api/useNotificationPreferencesQuery.ts';
import { useSaveNotificationPreferencesMutation } from '../api/useSaveNotificationPreferencesMutation.ts';

/** The rows of the events table: each event once, with an e-mail and/or a portal checkbox. */
const EVENT_ROWS: readonly (NotificationEvent | PortalEvent)[] = [
  'incident_created',
  'waiting_for_customer',
  'status_changed',
  'sla_at_risk',
  'soc_comment',
  'comment',
  'report_ready',
  'task_answer',
];

/** Holds a form field that the events table below shows and sets (antd wants a child to bind). */
const Held = (_: { value?: unknown }) => null;

/**
 * /profile/notifications: which events e-mail the user, about what, in which language (issue
 * 13), and which reach the notification centre (issue 40).
 */
export function NotificationSettingsPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  useDocumentTitle(t('settings.notifications.title'));
  const query = useNotificationPreferencesQuery();
  const save = useSaveNotificationPreferencesMutation();
  const [form] = Form.useForm<NotificationPreferences>();
  const emailEvents = Form.useWatch('events', form);
  const portalEvents = Form.useWatch('portal_events', form);

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
              portal_events: query.data.portal_events,
              scope: query.data.scope,
              language: query.data.language,
            }}
            onFinish={onFinish}
          >
            <Form.Item name="events" hidden>
              <Held />
            </Form.Item>
            <Form.Item name="portal_events" hidden>
              <Held />
            </Form.Item>
            <Form.Item label={t('settings.notifications.events')} extra={t('settings.notifications.follow')}>
              <div
                role="group"
                aria-label={t('settings.notifications.events')}
                data-testid="notification-settings-events"
                style={{
                  display: 'grid',
                  gridTemplateColumns: '1fr auto auto',
                  columnGap: token.marginLG,
                  rowGap: token.marginXS,
                  alignItems: 'center',
                }}
              >
                <span />
                <Typography.Text type="secondary">{t('settings.notifications.byEmail')}</Typography.Text>
                <Typography.Text type="secondary">{t('settings.notifications.inPortal')}</Typography.Text>
                {EVENT_ROWS.map((event) => {
                  const label = t(`settings.notifications.event.${event}`);
                  const cell = (
                    field: 'events' | 'portal_events',
                    kinds: readonly string[],
                    testId: string,
                  ) => {
                    if (!kinds.includes(event)) return <span />;
                    const chosen: readonly string[] = (field === 'events' ? emailEvents : portalEvents) ?? [];
                    return (
                      <Checkbox
                        checked={chosen.includes(event)}
                        aria-label={`${label}: ${t(`settings.notifications.${field === 'events' ? 'byEmail' : 'inPortal'}`)}`}
                        onChange={(e) =>
                          form.setFieldValue(
                            field,
                            e.target.checked ? [...chosen, event] : chosen.filter((c) => c !== event),
                          )
                        }
                        data-testid={testId}
                      />
                    );
                  };
                  return (
                    <Fragment key={event}>
                      <span>{label}</span>
                      {cell('events', NOTIFICATION_EVENTS, `notification-event-${event}`)}
                      {cell('portal_events', PORTAL_EVENTS, `notification-portal-${event}`)}
                    </Fragment>
                  );
                })}
              </div>
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
