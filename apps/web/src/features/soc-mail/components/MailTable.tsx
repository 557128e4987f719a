import type { MailQuarantineItem } from '@soc/contracts';
import { Button, Card, Flex, Table, theme, Typography, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { MAIL_PAGE_SIZE } from '../lib/mailListQuery.ts';
import { MailReasonTag } from './MailReasonTag.tsx';
import '../i18n/texts.ts';

export type MailTableProps = {
  items: readonly MailQuarantineItem[];
  total: number;
  page: number;
  onPage: (page: number) => void;
  selectedId: number | null;
  onOpen: (id: number) => void;
  loading: boolean;
};

/** The quarantined mail as a table inside its card: on a narrow screen it scrolls within the card. */
export function MailTable({ items, total, page, onPage, selectedId, onOpen, loading }: MailTableProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const columns: TableProps<MailQuarantineItem>['columns'] = [
    {
      key: 'received',
      title: t('socMail.columns.received'),
      render: (_, item) => (
        <Typography.Text style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(item.received, i18n.language)}
        </Typography.Text>
      ),
    },
    {
      key: 'sender',
      title: t('socMail.columns.sender'),
      render: (_, item) => (
        <Flex vertical style={{ minWidth: '10rem', maxWidth: '18rem' }}>
          {item.sender_name && <Typography.Text>{item.sender_name}</Typography.Text>}
          <Typography.Text type="secondary" style={{ overflowWrap: 'anywhere' }}>
            {item.sender}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'subject',
      title: t('socMail.columns.subject'),
      render: (_, item) => (
        <Button
          type="link"
          onClick={() => onOpen(item.id)}
          aria-pressed={item.id === selectedId}
          data-testid="soc-mail-open"
          style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start', maxWidth: '24rem' }}
        >
          {item.subject || t('socMail.noSubject')}
        </Button>
      ),
    },
    {
      key: 'incident',
      title: t('socMail.columns.incident'),
      render: (_, item) => (
        <Flex vertical>
          <Link to={`/inc/${item.incident}`} data-testid="soc-mail-incident">
            {item.incident}
          </Link>
          <Typography.Text type="secondary">{item.system}</Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'reason',
      title: t('socMail.columns.reason'),
      render: (_, item) => <MailReasonTag reason={item.reason} />,
    },
  ];
  return (
    <Card size="small" styles={{ body: { padding: 0 } }}>
      <Table<MailQuarantineItem>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={[...items]}
        loading={loading}
        scroll={{ x: 'max-content' }}
        aria-label={t('socMail.tableLabel')}
        pagination={{
          current: page,
          pageSize: MAIL_PAGE_SIZE,
          total,
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: onPage,
        }}
        onRow={(item) => ({
          'data-testid': 'soc-mail-row',
          'data-id': String(item.id),
          'data-selected': item.id === selectedId ? 'true' : undefined,
          style: item.id === selectedId ? { background: token.controlItemBgActive } : undefined,
        })}
        data-testid="soc-mail-table"
      />
    </Card>
  );
}
