import { CloseOutlined, FilePdfOutlined } from '@ant-design/icons';
import type { DocumentListItem } from '@soc/contracts';
import { Button, Card, Collapse, Descriptions, Flex, Typography, type DescriptionsProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { downloadDocumentPdf } from '../lib/downloadPdf.ts';
import { DocumentAttachments } from './DocumentAttachments.tsx';
import '../i18n/texts.ts';

export type DocumentSidePanelProps = {
  view: DocumentKindView;
  document: DocumentListItem;
  /** The panel's own close button; none in the phone's drawer, which has its own. */
  onClose?: () => void;
};

/** The selected document: collapsible summary and attachments sections, and a link to its card. */
export function DocumentSidePanel({ view, document, onClose }: DocumentSidePanelProps) {
  const { t, i18n } = useTranslation();
  const none = t('docs.panel.none');
  const headingId = `document-panel-title-${document.id}`;
  const locale = i18n.language;

  const details: DescriptionsProps['items'] = [
    {
      key: 'created',
      label: t('docs.panel.created'),
      children: formatDateTime(Date.parse(document.created), locale),
    },
    {
      key: 'updated',
      label: t('docs.panel.updated'),
      children: formatDateTime(Date.parse(document.updated), locale),
    },
    {
      key: 'language',
      label: t('docs.panel.language'),
      children: t(`docs.languages.${document.language}`),
    },
    { key: 'tags', label: t('docs.panel.tags'), children: document.tags.join(', ') || none },
    ...(view.hasSensors
      ? [{ key: 'sensors', label: t('docs.panel.sensors'), children: document.sensors.join(', ') || none }]
      : []),
  ];

  return (
    <Card
      role="region"
      aria-labelledby={headingId}
      data-testid="document-side-panel"
      data-id={document.id}
      title={
        <Typography.Title
          level={2}
          id={headingId}
          aria-live="polite"
          style={{ margin: 0, fontSize: 'inherit', whiteSpace: 'normal' }}
        >
          {document.title || t('docs.list.noTitle')}
        </Typography.Title>
      }
      extra={
        <Flex gap="small" align="center">
          <Button
            size="small"
            icon={<FilePdfOutlined aria-hidden />}
            onClick={() => downloadDocumentPdf(view, document)}
            data-testid="document-side-panel-pdf"
          >
            {t('docs.page.downloadPdf')}
          </Button>
          <Link to={`${view.cardPath}/${document.id}`} data-testid="document-side-panel-open">
            {t('docs.panel.open')}
          </Link>
          {onClose && (
            <Button
              type="text"
              size="small"
              icon={<CloseOutlined aria-hidden />}
              aria-label={t('docs.panel.close')}
              onClick={onClose}
              data-testid="document-side-panel-close"
            />
          )}
        </Flex>
      }
      style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      styles={{ body: { overflowY: 'auto', minHeight: 0 } }}
    >
      <Collapse
        ghost
        defaultActiveKey={['summary', 'attachments']}
        data-testid="document-side-panel-sections"
        items={[
          {
            key: 'summary',
            label: <span data-testid="document-panel-summary-toggle">{t('docs.panel.summary')}</span>,
            children: (
              <Flex vertical gap="small" data-testid="document-panel-summary">
                {document.summary && (
                  <Typography.Paragraph style={{ marginBottom: 0, whiteSpace: 'pre-line' }}>
                    {document.summary}
                  </Typography.Paragraph>
                )}
                <Descriptions column={1} size="small" items={details} />
              </Flex>
            ),
          },
          {
            key: 'attachments',
            label: (
              <span data-testid="document-panel-attachments-toggle">
                {t('docs.panel.attachments')} ({document.attachments.length})
              </span>
            ),
            children: (
              <DocumentAttachments attachments={document.attachments} testId="document-panel-attachments" />
            ),
          },
        ]}
      />
    </Card>
  );
}
