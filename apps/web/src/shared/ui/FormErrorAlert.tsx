import { Alert, theme } from 'antd';

export interface FormErrorAlertProps {
  /** Messages that belong to no single field (non_field_errors and unknown fields). */
  messages: readonly string[];
  /** Test id of the alert. */
  testId: string;
}

/** The form-level error box under a form's fields; renders nothing without messages. */
export function FormErrorAlert({ messages, testId }: FormErrorAlertProps) {
  const { token } = theme.useToken();
  if (!messages.length) return null;
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={messages.join(' ')}
      data-testid={testId}
      style={{ marginBottom: token.marginLG }}
    />
  );
}
