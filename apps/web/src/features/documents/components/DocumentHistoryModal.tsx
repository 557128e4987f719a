import type { DocumentVersion } from '@soc/contracts';
import { Button, Descriptions, Empty, Flex, Modal, Result, Skeleton, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { useDocumentHistoryQuery } from '../api/useDocumentHistoryQuery.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { DocumentHtml } from './DocumentHtml.tsx';
import '../i18n/texts.ts';

export type DocumentHistoryModalProps = {
  view: DocumentKindView;
  documentId: number;
  open: boolean;
  onClose: () => void;
};

/**
 * The version history of a document (product §B2 "Articles"): a modal list of versions, newest
 * first; a version's details (its description and comment) open in a second modal.
 */
export function DocumentHistoryModal({ view, documentId, open, onClose }: DocumentHistoryModalProps) {
  const { t, i18n } = useTranslation();
  const history = useDocumentHistoryQuery(view, documentId, open);
  // The last version shown stays set after its modal closes: emptying the modal while antd
  // animates it away once left its footer over the history's Close button for 30 s. The closed
  // modal is removed once its animation ends (`destroyOnHidden`).
  const [detail, setDetail] = useState<DocumentVersion | null>(null);
  const [detailOpen, setDetailOpen] = useState(false);
  const openDetail = (version: DocumentVersion) => {
    setDetail(version);
    setDetailOpen(true);
  };
  const closeDetail = () => setDetailOpen(false);

  return (
    <>
      <Modal
        open={open}
        onCancel={onClose}
        title={t('docs.history.title')}
        footer={
          <Button onClick={onClose} data-testid="document-history-close">
            {t('docs.history.close')}
          </Button>
        }
        width={720}
        data-testid="document-history-modal"
      >
        {history.isPending ? (
          <Skeleton active paragraph={{ rows: 4 }} />
        ) : history.isError ? (
          <Result
            status="error"
            title={t('docs.history.loadFailed')}
            extra={<Button onClick={() => void history.refetch()}>{t('common.retry')}</Button>}
            data-testid="document-history-error"
          />
        ) : history.data.results.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('docs.history.empty')} />
        ) : (
          <Table<DocumentVersion>
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={history.data.results}
            data-testid="document-history-list"
            columns={[
              {
                key: 'date',
                title: t('docs.history.date'),
                render: (_, version) => (
                  <time dateTime={version.date_created}>
                    {formatDateTime(Date.parse(version.date_created), i18n.language)}
                  </time>
                ),
              },
              { key: 'author', title: t('docs.history.author'), dataIndex: 'author' },
              {
                key: 'comment',
                title: t('docs.history.comment'),
                render: (_, version) =>
                  version.comment || (
                    <Typography.Text type="secondary">{t('docs.history.noComment')}</Typography.Text>
                  ),
              },
              {
                key: 'details',
                title: t('docs.history.details'),
                render: (_, version) => (
                  <Button
                    type="link"
                    size="small"
                    onClick={() => openDetail(version)}
                    data-testid="document-version-open"
                  >
                    {t('docs.history.details')}
                  </Button>
                ),
              },
            ]}
          />
        )}
      </Modal>
      <Modal
        open={detailOpen}
        onCancel={closeDetail}
        destroyOnHidden
        title={
          detail
            ? t('docs.history.versionTitle', {
                date: formatDateTime(Date.parse(detail.date_created), i18n.language),
              })
            : ''
        }
        footer={
          <Button onClick={closeDetail} data-testid="document-version-close">
            {t('docs.history.close')}
          </Button>
        }
        width={880}
        data-testid="document-version-modal"
      >
        {detail && (
          <Flex vertical gap="middle">
            <Descriptions
              column={1}
              size="small"
              items={[
                {
                  key: 'comment',
                  label: t('docs.history.comment'),
                  children: (
                    <span data-testid="document-version-comment">
                      {detail.comment || t('docs.history.noComment')}
                    </span>
                  ),
                },
              ]}
            />
            <Typography.Title level={3} style={{ margin: 0, fontSize: 'inherit' }}>
              {t('docs.history.description')}
            </Typography.Title>
            {detail.data.description_html ? (
              <DocumentHtml html={detail.data.description_html} testId="document-version-description" />
            ) : (
              <Typography.Text type="secondary">{t('docs.page.noDescription')}</Typography.Text>
            )}
          </Flex>
        )}
      </Modal>
    </>
  );
}
