import { EditOutlined, FilePdfOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Flex, Skeleton, theme, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { ApiError, errorDescription } from '@/shared/api/index.ts';
import { startDownload } from '@/shared/downloads/downloads.ts';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { IncidentPriorityTag } from '@/shared/ui/IncidentPriorityTag.tsx';
import { IncidentStatusTag } from '@/shared/ui/IncidentStatusTag.tsx';
import { notifyError } from '@/shared/ui/notifications.tsx';
import { useAvailableActionsQuery } from '../api/useAvailableActionsQuery.ts';
import { useIncidentCardQuery } from '../api/useIncidentCardQuery.ts';
import { useIsStaff } from '../../auth/index.ts';
import { ActionDialog } from '../components/ActionDialog.tsx';
import { CommentsPanel } from '../components/CommentsPanel.tsx';
import { EditIncidentDrawer } from '../components/EditIncidentDrawer.tsx';
import { MainInfo, MitreBlock, MoreInfo, RatingCard } from '../components/IncidentInfo.tsx';
import { isStaffAction, type PageAction } from '../components/IncidentActions.tsx';
import { IncidentTabs } from '../components/IncidentTabs.tsx';
import { InternalNotesPanel, type NoteComposerRef } from '../components/InternalNotesPanel.tsx';
import { PriorityDialog } from '../components/PriorityControl.tsx';
import { ShortcutsDialog } from '../components/ShortcutsDialog.tsx';
import type { SocAssigneeHandle } from '../components/SocAssigneeControl.tsx';
import { StaffStatusDialog } from '../components/StaffStatusDialog.tsx';
import { useStaffShortcuts } from '../hooks/useStaffShortcuts.ts';
import '../i18n/texts.ts';

/** Query parameter that opens the priority dialog (product §A2). */
export const UPDATE_PRIORITY_PARAM = 'updatePriority';

/** Width of the left block, in multiples of the theme's control height. */
const LEFT_BLOCK_CONTROLS = 11;

/** The page's incident number, or null when the path holds none. */
function parseKey(value: string | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const key = Number(value);
  return key > 0 ? key : null;
}

/**
 * /inc/{incNumber} (product §A2 "Incident page"): breadcrumbs and title; on the left main info
 * with the workflow actions, priority and assignee, more info, MITRE and the rating; tabs in
 * the centre; the comments on the right. On a phone (below 1024 px) the three are one column in
 * that order, the workflow actions at the top. A failed load shows the toast of product §A8 and
 * returns to the list.
 */
export function IncidentPage() {
  const { incNumber } = useParams();
  const key = parseKey(incNumber);
  if (key === null) return <LoadFailed />;
  return <IncidentView key={key} incidentKey={key} />;
}

/** Shows the load-failure toast once and goes to the list. */
function LoadFailed({ error }: { error?: unknown }) {
  const { t } = useTranslation();
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    notifyError({
      title: t('incidentPage.loadFailed'),
      description: error instanceof ApiError ? errorDescription(error) : undefined,
      key: 'incident-load-failed',
    });
  }, [error, t]);
  return <Navigate to="/incidents" replace />;
}

type IncidentViewProps = { incidentKey: number };

function IncidentView({ incidentKey }: IncidentViewProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const language = useLanguage();
  const isPhone = useIsPhone();
  const [searchParams, setSearchParams] = useSearchParams();
  const card = useIncidentCardQuery(incidentKey);
  const actions = useAvailableActionsQuery(incidentKey, card.isSuccess);
  // staff controls only once the user record says so; never an /analyst/ call for a customer
  const isStaff = useIsStaff() === true;
  const [dialogAction, setDialogAction] = useState<PageAction | null>(null);
  const [editing, setEditing] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const noteRef = useRef<NoteComposerRef>(null);
  const socAssigneeRef = useRef<SocAssigneeHandle>(null);
  const priorityDialogOpen = searchParams.has(UPDATE_PRIORITY_PARAM);
  useDocumentTitle(t('pages.incident', { incNumber: incidentKey }));

  // the dialog is the `?updatePriority` link's (product §A2); on the page the priority is changed in place
  const closePriorityDialog = () => {
    const next = new URLSearchParams(searchParams);
    next.delete(UPDATE_PRIORITY_PARAM);
    setSearchParams(next, { replace: true });
  };

  useStaffShortcuts(
    isStaff &&
      card.data !== undefined &&
      !editing &&
      !shortcutsOpen &&
      dialogAction === null &&
      !priorityDialogOpen,
    {
      note: () => noteRef.current?.focus(),
      // the shared chat composer takes no ref: its text area is found in the comments panel
      comment: () =>
        document
          .querySelector<HTMLTextAreaElement>('[data-testid="comments-panel"] [data-testid="comment-input"]')
          ?.focus(),
      assignToMe: () => socAssigneeRef.current?.assignToMe(),
      help: () => setShortcutsOpen(true),
    },
  );

  const centreStyle = { flex: isPhone ? 'none' : '1 1 0', minWidth: 0 };
  const refetchCard = card.refetch;
  const refresh = useCallback(() => void refetchCard(), [refetchCard]);

  if (card.isError && !card.data) return <LoadFailed error={card.error} />;

  const incident = card.data;
  return (
    <Flex vertical gap="middle" data-testid="incident-page" data-key={incidentKey}>
      <Breadcrumb
        aria-label={t('incidentPage.breadcrumbs')}
        data-testid="incident-breadcrumbs"
        items={[
          { title: <Link to="/dashboard">{t('pages.dashboard')}</Link> },
          { title: <Link to="/incidents">{t('pages.incidents')}</Link> },
          { title: <span aria-current="page">{incidentKey}</span> },
        ]}
      />
      <Flex align="center" gap="middle" wrap>
        <Typography.Title
          level={1}
          style={{ margin: 0, fontSize: token.fontSizeHeading3, flex: '1 1 auto', minWidth: 0 }}
          data-testid="incident-title"
        >
          {incidentKey}
          {incident ? `: ${incident.summary}` : ''}
        </Typography.Title>
        {incident && (
          <Flex gap="small" align="center">
            <IncidentStatusTag status={incident.status} />
            <IncidentPriorityTag priority={incident.priority} />
          </Flex>
        )}
        {isStaff && !isPhone && (
          <Tooltip title={t('incidentPage.shortcuts.open')}>
            <Button
              icon={<QuestionCircleOutlined aria-hidden />}
              aria-label={t('incidentPage.shortcuts.open')}
              onClick={() => setShortcutsOpen(true)}
              data-testid="incident-shortcuts"
            />
          </Tooltip>
        )}
        {isStaff && (
          <Button
            icon={<EditOutlined aria-hidden />}
            disabled={!incident}
            onClick={() => setEditing(true)}
            data-testid="incident-edit"
          >
            {t('incidentPage.edit.open')}
          </Button>
        )}
        <Button
          icon={<FilePdfOutlined aria-hidden />}
          disabled={!incident}
          onClick={() =>
            startDownload({
              path: `/soc/incs/${incidentKey}/get_pdf_inc/`,
              query: { language },
              accept: 'application/pdf',
              filename: `incident-${incidentKey}.pdf`,
            })
          }
          data-testid="incident-pdf"
        >
          {t('incidentPage.pdf.download')}
        </Button>
      </Flex>

      {!incident ? (
        <Flex
          vertical={isPhone}
          gap="middle"
          role="status"
          aria-label={t('incidentPage.loading')}
          data-testid="incident-loading"
        >
          <Skeleton active paragraph={{ rows: 10 }} style={{ flex: isPhone ? 'none' : '0 0 22rem' }} />
          <Skeleton active paragraph={{ rows: 10 }} />
        </Flex>
      ) : (
        <Flex vertical={isPhone} gap="middle" align="stretch" data-testid="incident-columns">
          <Flex
            vertical
            gap="middle"
            style={{
              flex: isPhone ? 'none' : `0 0 ${token.controlHeight * LEFT_BLOCK_CONTROLS}px`,
              minWidth: 0,
            }}
          >
            <MainInfo
              incident={incident}
              actions={actions.data}
              actionsLoading={actions.isPending}
              onAction={setDialogAction}
              staff={isStaff}
              socAssigneeRef={socAssigneeRef}
            />
            <MoreInfo incident={incident} onRefresh={refresh} />
            <MitreBlock incident={incident} />
            {(incident.can_rate || incident.customer_star_rating !== null) && (
              <RatingCard incident={incident} />
            )}
          </Flex>
          {isStaff ? (
            // the notes below the tabs; a customer's column stays the tabs alone
            <Flex vertical gap="middle" style={centreStyle}>
              <section style={{ minWidth: 0 }} aria-label={t('incidentPage.tabs.label')}>
                <IncidentTabs incident={incident} />
              </section>
              <InternalNotesPanel incidentKey={incidentKey} composerRef={noteRef} />
            </Flex>
          ) : (
            <section style={centreStyle} aria-label={t('incidentPage.tabs.label')}>
              <IncidentTabs incident={incident} />
            </section>
          )}
          <CommentsPanel incidentKey={incidentKey} staff={isStaff} />
          <ActionDialog
            incident={incident}
            action={dialogAction !== null && !isStaffAction(dialogAction) ? dialogAction : null}
            onClose={() => setDialogAction(null)}
            staff={isStaff}
          />
          {isStaff && (
            <EditIncidentDrawer incident={incident} open={editing} onClose={() => setEditing(false)} />
          )}
          {isStaff && <ShortcutsDialog open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} />}
          {isStaff && (
            <StaffStatusDialog
              incident={incident}
              action={dialogAction !== null && isStaffAction(dialogAction) ? dialogAction : null}
              onClose={() => setDialogAction(null)}
            />
          )}
          <PriorityDialog incident={incident} open={priorityDialogOpen} onClose={closePriorityDialog} />
        </Flex>
      )}
    </Flex>
  );
}
