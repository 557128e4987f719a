import type { IncidentStatus, IocFeedFormat, IocFeedIndicator, IocType } from '@soc/contracts';
import {
  INCIDENT_STATUSES,
  INCIDENT_STATUS_TITLES,
  IOC_FEED_FORMATS,
  IOC_FEED_PREVIEW_SIZE,
  IOC_TYPES,
} from '@soc/contracts';
import { Alert, Button, Card, Empty, Flex, Form, Select, Skeleton, Table, Typography, theme } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { useIocFeedPreviewQuery } from '../api/useIocFeedPreviewQuery.ts';
import { CopyableCommand } from '../components/CopyableCommand.tsx';
import '../i18n/texts.ts';
import { curlCommand, feedUrl } from '../lib/feedUrls.ts';
import '../../alerts/index.ts';

const TYPE_PARAM = 'ioc_type__in';
const STATUS_PARAM = 'status__in';

const listOf = (params: URLSearchParams, name: string): string[] =>
  (params.get(name) ?? '').split(',').filter(Boolean);

/**
 * /profile/ioc-feed: the feed URL of each format for the chosen filters, with copy buttons, a curl
 * example and a preview of the first indicators (issue 29 §3).
 */
export function IocFeedPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const language = useLanguage();
  useDocumentTitle(t('iocFeed.title'));
  const { params, setParams } = usePersistedFilters('ioc-feed');
  const preview = useIocFeedPreviewQuery(params);

  const setList = (name: string, values: string[]) => {
    const next = new URLSearchParams(params);
    if (values.length) next.set(name, values.join(','));
    else next.delete(name);
    setParams(next);
  };
  const origin = window.location.origin;
  const url = (format: IocFeedFormat) => feedUrl(origin, format, params);

  const columns: TableColumnsType<IocFeedIndicator> = [
    { key: 'name', title: t('iocFeed.columns.indicator'), dataIndex: 'name', ellipsis: true },
    {
      key: 'pattern',
      title: t('iocFeed.columns.pattern'),
      dataIndex: 'pattern',
      ellipsis: true,
      render: (pattern: string) => <Typography.Text code>{pattern}</Typography.Text>,
    },
    { key: 'system', title: t('iocFeed.columns.system'), dataIndex: 'x_soc_system_id', width: 100 },
    {
      key: 'incidents',
      title: t('iocFeed.columns.incidents'),
      dataIndex: 'x_soc_incident_count',
      width: 110,
    },
  ];

  return (
    <Flex vertical gap="middle" style={{ maxWidth: token.screenLG }} data-testid="ioc-feed-page">
      <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3 }}>
        {t('iocFeed.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('iocFeed.intro')}{' '}
        {/* underlined: in the secondary text its colour alone would not tell it apart (WCAG 1.4.1) */}
        <Link to="/changepassword" style={{ textDecoration: 'underline' }}>
          {t('iocFeed.tokensLink')}
        </Link>
      </Typography.Paragraph>

      <Card title={t('iocFeed.filters')} size="small">
        <Form layout="vertical">
          <Flex gap="middle" wrap>
            <Form.Item
              label={t('iocFeed.types')}
              style={{ flex: 1, minWidth: token.screenXS / 2, margin: 0 }}
            >
              <Select<IocType[]>
                mode="multiple"
                allowClear
                aria-label={t('iocFeed.types')}
                data-testid="ioc-feed-types"
                placeholder={t('iocFeed.typesPlaceholder')}
                value={listOf(params, TYPE_PARAM) as IocType[]}
                onChange={(values) => setList(TYPE_PARAM, values)}
                options={IOC_TYPES.map((type) => ({ value: type, label: t(`alerts.iocs.types.${type}`) }))}
              />
            </Form.Item>
            <Form.Item
              label={t('iocFeed.statuses')}
              style={{ flex: 1, minWidth: token.screenXS / 2, margin: 0 }}
            >
              <Select<IncidentStatus[]>
                mode="multiple"
                allowClear
                aria-label={t('iocFeed.statuses')}
                data-testid="ioc-feed-statuses"
                placeholder={t('iocFeed.statusesPlaceholder')}
                value={listOf(params, STATUS_PARAM) as IncidentStatus[]}
                onChange={(values) => setList(STATUS_PARAM, values)}
                options={INCIDENT_STATUSES.map((status) => ({
                  value: status,
                  label: INCIDENT_STATUS_TITLES[language][status],
                }))}
              />
            </Form.Item>
          </Flex>
        </Form>
      </Card>

      <Card title={t('iocFeed.formats')} size="small">
        <Flex vertical gap="middle">
          {IOC_FEED_FORMATS.map((format) => (
            <Flex vertical gap="small" key={format} data-testid={`ioc-feed-format-${format}`}>
              <Typography.Text strong>{t(`iocFeed.format.${format}`)}</Typography.Text>
              <Typography.Text type="secondary">{t(`iocFeed.formatHint.${format}`)}</Typography.Text>
              <CopyableCommand
                text={url(format)}
                testId={`ioc-feed-url-${format}`}
                label={t(`iocFeed.format.${format}`)}
              />
            </Flex>
          ))}
        </Flex>
      </Card>

      <Card title={t('iocFeed.curl')} size="small">
        <Flex vertical gap="small">
          <CopyableCommand
            text={curlCommand(url('txt'), t('iocFeed.tokenPlaceholder'))}
            testId="ioc-feed-curl"
            label={t('iocFeed.curl')}
          />
          <Typography.Text type="secondary">{t('iocFeed.curlHint')}</Typography.Text>
        </Flex>
      </Card>

      <Card title={t('iocFeed.preview')} size="small">
        <Typography.Paragraph type="secondary">
          {t('iocFeed.previewHint', { count: IOC_FEED_PREVIEW_SIZE })}
        </Typography.Paragraph>
        {preview.isPending && <Skeleton active data-testid="ioc-feed-preview-loading" />}
        {preview.isError && (
          <Alert
            type="error"
            showIcon
            data-testid="ioc-feed-preview-error"
            title={t('iocFeed.loadFailed')}
            action={
              <Button size="small" onClick={() => void preview.refetch()}>
                {t('common.retry')}
              </Button>
            }
          />
        )}
        {preview.data &&
          (preview.data.objects.length === 0 ? (
            <Empty description={t('iocFeed.empty')} data-testid="ioc-feed-preview-empty" />
          ) : (
            <Table<IocFeedIndicator>
              size="small"
              rowKey="id"
              data-testid="ioc-feed-preview"
              columns={columns}
              dataSource={preview.data.objects}
              pagination={false}
              loading={preview.isFetching}
            />
          ))}
      </Card>
    </Flex>
  );
}
