import { INCIDENT_PRIORITIES, type IncidentCard, type IncidentPriority } from '@soc/contracts';
import { Button, Flex, Form, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IncidentPriorityTag } from '@/shared/ui/IncidentPriorityTag.tsx';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { usePriorityMutation } from '../api/usePriorityMutation.ts';
import '../i18n/texts.ts';

/** Priority options: those the caller may set, and the current one (shown, not choosable, if not). */
function priorityOptions(incident: IncidentCard) {
  return INCIDENT_PRIORITIES.filter(
    (priority) => incident.allowed_priorities.includes(priority) || priority === incident.priority,
  ).map((priority) => ({
    value: priority,
    label: <IncidentPriorityTag priority={priority} />,
    disabled: !incident.allowed_priorities.includes(priority),
  }));
}

export type PriorityControlProps = {
  incident: IncidentCard;
};

/**
 * The priority in the main info, changed in place (product §A4 "inline"): one control, a select
 * showing the priority's tag. The dialog is for the `?updatePriority` link alone (issue 40: an
 * arrow and a pencil beside each other offered the same change twice).
 */
export function PriorityControl({ incident }: PriorityControlProps) {
  const { t } = useTranslation();
  const mutation = usePriorityMutation(incident.key);
  const editable = incident.allowed_priorities.length > 0;

  const change = (priority: IncidentPriority) => {
    if (priority === incident.priority) return;
    mutation.mutate(priority, {
      onSuccess: () => notifySuccess({ title: t('incidentPage.priority.saved') }),
    });
  };

  if (!editable) return <IncidentPriorityTag priority={incident.priority} testId="incident-priority" />;
  return (
    <Select<IncidentPriority>
      size="small"
      variant="borderless"
      value={incident.priority}
      options={priorityOptions(incident)}
      onChange={change}
      loading={mutation.isPending}
      disabled={mutation.isPending}
      aria-label={t('incidentPage.mainInfo.priority')}
      data-testid="incident-priority-select"
      data-priority={incident.priority}
      popupMatchSelectWidth={false}
    />
  );
}

export type PriorityDialogProps = {
  incident: IncidentCard;
  open: boolean;
  onClose: () => void;
};

/** The priority-change dialog (product §A2 `?updatePriority`, §4). */
export function PriorityDialog({ incident, open, onClose }: PriorityDialogProps) {
  const { t } = useTranslation();
  const mutation = usePriorityMutation(incident.key);
  const [priority, setPriority] = useState<IncidentPriority>(incident.priority);
  // the choice starts from the current priority each time the dialog opens, at once: resetting it
  // after the opening animation would undo a choice made quickly
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setPriority(incident.priority);
  }

  const save = () => {
    if (priority === incident.priority) {
      onClose();
      return;
    }
    mutation.mutate(priority, {
      onSuccess: () => {
        notifySuccess({ title: t('incidentPage.priority.saved') });
        onClose();
      },
    });
  };

  return (
    <Modal
      open={open}
      title={t('incidentPage.priority.dialogTitle', { key: incident.key })}
      onCancel={mutation.isPending ? undefined : onClose}
      footer={
        <Flex justify="flex-end" gap="small">
          <Button onClick={onClose} disabled={mutation.isPending} data-testid="priority-cancel">
            {t('common.cancel')}
          </Button>
          <Button
            type="primary"
            onClick={save}
            loading={mutation.isPending}
            disabled={incident.allowed_priorities.length === 0}
            data-testid="priority-save"
          >
            {t('incidentPage.priority.save')}
          </Button>
        </Flex>
      }
      modalRender={(node) => <div data-testid="priority-dialog">{node}</div>}
    >
      <Form layout="vertical">
        <Form.Item label={t('incidentPage.priority.label')} htmlFor="incident-priority-dialog-select">
          <Select<IncidentPriority>
            id="incident-priority-dialog-select"
            value={priority}
            options={priorityOptions(incident)}
            onChange={setPriority}
            data-testid="priority-dialog-select"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
