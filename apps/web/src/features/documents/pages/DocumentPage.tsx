import {
  ArrowLeftOutlined,
  EditOutlined,
  FilePdfOutlined,
  HistoryOutlined,
  TranslationOutlined,
} from '@ant-design/icons';
import { Anchor, Breadcrumb, Button, Card, Flex, Skeleton, theme, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError, errorDescription } from '@/shared/api/index.ts';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { notifyError } from '@/shared/ui/notifications.tsx';
import { useDocumentQuery } from '../api/useDocumentQuery.ts';
import { DocumentComments } from '../components/DocumentComments.tsx';
import { DocumentEditor, type DocumentEditorMode } from '../components/DocumentEditor.tsx';
import { DocumentHistoryModal } from '../components/DocumentHistoryModal.tsx';
import { DocumentHtml } from '../components/DocumentHtml.tsx';
import { DocumentMainInfo } from '../components/DocumentMainInfo.tsx';
import { downloadDocumentPdf } from '../lib/downloadPdf.ts';
import { DOCUMENT_VIEWS, type DocumentKindView, type DocumentTab } from '../lib/documentKinds.ts';
import '../i18n/texts.ts';

/** Ids of the anchored blocks. */
const BLOCK_IDS = {
  mainInfo: 'document-main-info',
  body: 'document-body',
  comments: 'document-comments',
} as const;

/** The page's document id, or null when the path holds none. */
function parseId(value: string | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

export type DocumentPageProps = {
  /** The hub tab the document belongs to (its kind). */
  tab: DocumentTab;
};

/**
 * /instruction/{id}, /responseInstruction/{id}, /article/{id} (product §B2): breadcrumb with a
 * back button, Download PDF, anchored blocks (main info, body, comments), the version history
 * (response instructions and articles). A fetch error shows a toast and returns to the list.
 */
export function DocumentPage({ tab }: DocumentPageProps) {
  const view = DOCUMENT_VIEWS[tab];
  const id = parseId(useParams().id);
  if (id === null) return <LoadFailed view={view} />;
  return <DocumentView key={id} view={view} documentId={id} />;
}

/** Shows the load-failure toast once and goes to the list (product §B8). */
function LoadFailed({ view, error }: { view: DocumentKindView; error?: unknown }) {
  const { t } = useTranslation();
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    notifyError({
      title: t(`docs.page.loadFailed.${view.tab}`),
      description: error instanceof ApiError ? errorDescription(error) : undefined,
      key: 'document-load-failed',
    });
  }, [error, t, view.tab]);
  return <Navigate to={view.listPath} replace />;
}

type DocumentViewProps = { view: DocumentKindView; documentId: number };

function DocumentView({ view, documentId }: DocumentViewProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const location = useLocation();
  const card = useDocumentQuery(view, documentId);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [editing, setEditing] = useState<DocumentEditorMode | null>(null);
  const isPhone = useIsPhone();
  const interfaceLanguage = useLanguage();
  const document = card.data;
  // a language the document has no variant in yet (staff may add one)
  const missingLanguage = (['ru', 'en'] as const).find(
    (language) => document && !document.languages.some((variant) => variant.language === language),
  );
  useDocumentTitle(document?.title || t(view.titleKey, { id: documentId }));

  if (card.isError) return <LoadFailed view={view} error={card.error} />;

  const goBack = () => {
    // Back within the app when it came from somewhere, else to the list.
    if (location.key !== 'default') void navigate(-1);
    else void navigate(view.listPath);
  };

  return (
    <Flex vertical gap="middle" data-testid="document-page" data-kind={view.kind} data-id={documentId}>
      <Flex align="center" gap="small">
        <Button
          type="text"
          size="small"
          icon={<ArrowLeftOutlined aria-hidden />}
          aria-label={t('docs.page.back')}
          title={t('docs.page.back')}
          onClick={goBack}
          data-testid="document-back"
        />
        <Breadcrumb
          aria-label={t('docs.page.breadcrumbs')}
          data-testid="document-breadcrumbs"
          items={[
            { title: <Link to="/docs/instructions">{t('pages.docs')}</Link> },
            { title: <Link to={view.listPath}>{t(`docs.tabs.${view.tab}`)}</Link> },
            { title: <span aria-current="page">{document?.title ?? documentId}</span> },
          ]}
        />
      </Flex>
      <Flex align="center" gap="middle" wrap>
        <Typography.Title
          level={1}
          lang={document?.language}
          style={{ margin: 0, fontSize: token.fontSizeHeading3, flex: '1 1 auto', minWidth: 0 }}
          data-testid="document-title"
        >
          {document ? document.title || t('docs.list.noTitle') : t(view.titleKey, { id: documentId })}
        </Typography.Title>
        <Button
          icon={<FilePdfOutlined aria-hidden />}
          disabled={!document}
          onClick={() => document && downloadDocumentPdf(view, document)}
          data-testid="document-pdf"
        >
          {t('docs.page.downloadPdf')}
        </Button>
        {document?.can_edit && (
          <>
            <Button
              icon={<EditOutlined aria-hidden />}
              onClick={() => setEditing({ mode: 'edit', document })}
              data-testid="document-edit"
            >
              {t('docs.editor.edit')}
            </Button>
            {missingLanguage && (
              <Button
                icon={<TranslationOutlined aria-hidden />}
                onClick={() => setEditing({ mode: 'translate', document, language: missingLanguage })}
                data-testid="document-translate"
              >
                {t('docs.editor.translate')}
              </Button>
            )}
          </>
        )}
      </Flex>
      <DocumentEditor
        view={view}
        editing={editing}
        onClose={() => setEditing(null)}
        interfaceLanguage={interfaceLanguage}
        onSaved={(saved) => {
          if (saved.id !== documentId) void navigate(`${view.cardPath}/${saved.id}`);
        }}
      />

      {!document ? (
        <div role="status" aria-label={t('docs.page.loading')} data-testid="document-loading">
          <Skeleton active paragraph={{ rows: 10 }} />
        </div>
      ) : (
        <Flex gap="large" align="flex-start">
          <Flex vertical gap="middle" style={{ flex: '1 1 0', minWidth: 0 }}>
            <DocumentMainInfo view={view} document={document} id={BLOCK_IDS.mainInfo} />
            <Card
              id={BLOCK_IDS.body}
              size="small"
              data-testid="document-body-block"
              title={
                <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading5 }}>
                  {t(`docs.page.body.${view.tab}`)}
                </Typography.Title>
              }
              extra={
                view.hasHistory && (
                  <Button
                    size="small"
                    icon={<HistoryOutlined aria-hidden />}
                    onClick={() => setHistoryOpen(true)}
                    data-testid="document-history-open"
                  >
                    {t('docs.history.open')}
                  </Button>
                )
              }
            >
              <div lang={document.language}>
                {document.description_html ? (
                  <DocumentHtml html={document.description_html} testId="document-body" collapsible />
                ) : (
                  <Typography.Text type="secondary" data-testid="document-no-description">
                    {t('docs.page.noDescription')}
                  </Typography.Text>
                )}
              </div>
            </Card>
            <DocumentComments view={view} documentId={documentId} id={BLOCK_IDS.comments} />
          </Flex>
          {/* one column on a phone: the blocks follow one another, no jumps beside them */}
          {!isPhone && (
            <nav
              aria-label={t('docs.page.anchors')}
              style={{ flex: 'none', position: 'sticky', top: '5rem', minWidth: '12rem' }}
              data-testid="document-anchors"
            >
              <Anchor
                affix={false}
                // No history entries for in-page jumps: Back leaves the document.
                replace
                offsetTop={80}
                items={[
                  { key: 'main', href: `#${BLOCK_IDS.mainInfo}`, title: t('docs.page.mainInfo') },
                  { key: 'body', href: `#${BLOCK_IDS.body}`, title: t(`docs.page.body.${view.tab}`) },
                  { key: 'comments', href: `#${BLOCK_IDS.comments}`, title: t('docs.comments.title') },
                ]}
              />
            </nav>
          )}
          {view.hasHistory && (
            <DocumentHistoryModal
              view={view}
              documentId={documentId}
              open={historyOpen}
              onClose={() => setHistoryOpen(false)}
            />
          )}
        </Flex>
      )}
    </Flex>
  );
}
