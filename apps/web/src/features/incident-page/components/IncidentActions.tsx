import type { IncidentAction } from '@soc/contracts';
import { Button, Flex, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CustomerAction } from '../api/useIncidentActionMutation.ts';
import type { StaffAction } from './StaffStatusDialog.tsx';
import '../i18n/texts.ts';

/** The customer actions in the order they are offered (product §A4). */
const CUSTOMER_ACTIONS: readonly CustomerAction[] = ['confirm', 'close', 'reopen'];
/** The SOC's outcomes, offered to staff after the others (design §5). */
const STAFF_ACTIONS: readonly StaffAction[] = ['complete', 'cancel'];

/** An action the page opens a dialog for. */
export type PageAction = CustomerAction | StaffAction;

export const isStaffAction = (action: PageAction): action is StaffAction =>
  (STAFF_ACTIONS as readonly PageAction[]).includes(action);

export type IncidentActionsProps = {
  /** The server's available actions; undefined while loading. */
  available: readonly IncidentAction[] | undefined;
  loading: boolean;
  /** Also offers the SOC's complete and cancel when the server allows them (staff only). */
  staff?: boolean;
  onOpen: (action: PageAction) => void;
};

/** Links for the actions the server allows now, or a dash when there are none (product §A4). */
export function IncidentActions({ available, loading, staff = false, onOpen }: IncidentActionsProps) {
  const { t } = useTranslation();
  if (loading) return <Skeleton.Button active size="small" />;
  const offered: readonly PageAction[] = staff ? [...CUSTOMER_ACTIONS, ...STAFF_ACTIONS] : CUSTOMER_ACTIONS;
  const actions = offered.filter((action) => available?.includes(action));
  if (actions.length === 0) {
    return (
      <Typography.Text
        type="secondary"
        aria-label={t('incidentPage.actions.none')}
        data-testid="actions-none"
      >
        —
      </Typography.Text>
    );
  }
  return (
    <Flex
      wrap
      gap="small"
      role="group"
      aria-label={t('incidentPage.actions.label')}
      data-testid="incident-actions"
    >
      {actions.map((action) => (
        <Button
          key={action}
          type="link"
          size="small"
          style={{ paddingInline: 0 }}
          onClick={() => onOpen(action)}
          data-testid={`action-${action}`}
        >
          {t(`incidentPage.actions.${action}`)}
        </Button>
      ))}
    </Flex>
  );
}
