import {
  CheckCircleOutlined,
  ExclamationCircleOutlined,
  LoadingOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { GOSSOPKA_PROCESSING_MS, type IncidentCard } from '@soc/contracts';
import { Button, Flex, Modal, theme, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useSendToGossopkaMutation } from '../api/useSendToGossopkaMutation.ts';
import { formatCountdown } from '../lib/countdown.ts';
import '../i18n/texts.ts';

/** How often the card is fetched again while a send is being processed. */
const PROCESSING_POLL_MS = 5_000;

/** What the control shows now: the server's state, advanced by the clock (product §A4). */
export type GossopkaView = 'none' | 'countdown' | 'processing' | 'sent' | 'error';

/**
 * The state shown at `now`: a planned send counts down, then is processed for at most
 * GOSSOPKA_PROCESSING_MS, after which it is an error until the server says otherwise.
 */
export function gossopkaView(incident: IncidentCard, now: number): GossopkaView {
  switch (incident.gossopka_state) {
    case 'sent':
      return 'sent';
    case 'error':
      return 'error';
    case 'processing': {
      const since = incident.gossopka_processing_since ?? now;
      return now - since > GOSSOPKA_PROCESSING_MS ? 'error' : 'processing';
    }
    case 'planned': {
      const planned = incident.gossopka_planned_time;
      if (planned === null) return 'none';
      if (now < planned) return 'countdown';
      return now - planned > GOSSOPKA_PROCESSING_MS ? 'error' : 'processing';
    }
    default:
      return 'none';
  }
}

/** The current time, updated every second while `active`. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export type GossopkaControlProps = {
  incident: IncidentCard;
  /** Fetches the card again (processing polls, and the end of the processing window). */
  onRefresh: () => void;
};

/**
 * Sending to the national centre (product §A4): the send button behind a confirmation; a
 * countdown (hh:mm:ss) to a planned send with the button; at zero a processing state for up to
 * 5 minutes; then an error label with the button again. Sent incidents show their id.
 */
export function GossopkaControl({ incident, onRefresh }: GossopkaControlProps) {
  const { t, i18n } = useTranslation();
  // the dialog follows the theme and locale through its context holder (rendered below)
  const [modal, modalHolder] = Modal.useModal();
  const { token } = theme.useToken();
  const mutation = useSendToGossopkaMutation(incident.key);
  const ticking = incident.gossopka_state === 'planned' || incident.gossopka_state === 'processing';
  const now = useNow(ticking);
  const view = gossopkaView(incident, now);

  // Processing: poll for the outcome; once the window has passed, fetch the card once more.
  useEffect(() => {
    if (view !== 'processing') return undefined;
    const timer = setInterval(onRefresh, PROCESSING_POLL_MS);
    return () => clearInterval(timer);
  }, [view, onRefresh]);
  const expired = ticking && view === 'error';
  useEffect(() => {
    if (expired) onRefresh();
  }, [expired, onRefresh]);

  const send = () => {
    modal.confirm({
      title: t('incidentPage.gossopka.confirmTitle', { key: incident.key }),
      content: t('incidentPage.gossopka.confirmText'),
      okText: t('incidentPage.gossopka.confirmOk'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'gossopka-confirm-ok' },
      onOk: () =>
        mutation.mutateAsync().then(
          (status) =>
            notifySuccess({
              title:
                status.gossopka_state === 'sent'
                  ? t('incidentPage.gossopka.sent')
                  : t('incidentPage.gossopka.started'),
            }),
          // The toast is shown by the request; the dialog closes either way.
          () => undefined,
        ),
    });
  };

  const sendButton = incident.show_gossopka_button && (
    <Button
      size="small"
      icon={<SendOutlined aria-hidden />}
      onClick={send}
      loading={mutation.isPending}
      data-testid="gossopka-send"
    >
      {t('incidentPage.gossopka.send')}
    </Button>
  );

  return (
    <Flex vertical gap="small" align="flex-start" data-testid="gossopka" data-view={view}>
      {modalHolder}
      {view === 'sent' && (
        // Coloured icons, plain text: antd's success and error text colours fall short of WCAG AA.
        <Typography.Text data-testid="gossopka-sent">
          <CheckCircleOutlined aria-hidden style={{ color: token.colorSuccess }} />{' '}
          {t('incidentPage.gossopka.sent')}
          {incident.gossopka_id ? `: ${incident.gossopka_id}` : ''}
          {incident.gossopka_send_time !== null &&
            ` (${formatDateTime(incident.gossopka_send_time, i18n.language)})`}
        </Typography.Text>
      )}
      {view === 'countdown' && incident.gossopka_planned_time !== null && (
        <Flex align="center" gap="small" wrap>
          <Typography.Text type="secondary">{t('incidentPage.gossopka.planned')}</Typography.Text>
          <Typography.Text strong role="timer" data-testid="gossopka-countdown">
            {formatCountdown(incident.gossopka_planned_time - now)}
          </Typography.Text>
          {sendButton}
        </Flex>
      )}
      {view === 'processing' && (
        <Typography.Text type="secondary" role="status" data-testid="gossopka-processing">
          <LoadingOutlined aria-hidden /> {t('incidentPage.gossopka.processing')}
        </Typography.Text>
      )}
      {view === 'error' && (
        <>
          <Typography.Text role="alert" data-testid="gossopka-error">
            <ExclamationCircleOutlined aria-hidden style={{ color: token.colorError }} />{' '}
            {t('incidentPage.gossopka.errorLabel')}
            {incident.gossopka_error ? `: ${incident.gossopka_error}` : ''}
          </Typography.Text>
          {sendButton}
        </>
      )}
      {view === 'none' && (sendButton || <Typography.Text type="secondary">—</Typography.Text>)}
    </Flex>
  );
}
