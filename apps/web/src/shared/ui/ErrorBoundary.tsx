import { ReloadOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { reportError } from '../errors/errorReporter.ts';
import { ChunkLoadError } from '../lib/chunkLoad.ts';
import { ChunkLoadErrorScreen } from './ChunkLoadErrorScreen.tsx';
import { StatusScreen } from './StatusScreen.tsx';

export type ErrorScreenProps = {
  /** The value that was thrown. */
  error: unknown;
  /** Clears the error and renders the children again. */
  onRetry?: () => void;
};

/** The screen for a render error: the chunk screen for failed lazy loads, else a generic one. */
export function ErrorScreen({ error, onRetry }: ErrorScreenProps) {
  const { t } = useTranslation();
  if (error instanceof ChunkLoadError) return <ChunkLoadErrorScreen failure={error.failure} />;
  return (
    <StatusScreen
      status="error"
      title={t('errors.unexpectedTitle')}
      subTitle={t('errors.unexpectedText')}
      data-testid="error-screen"
      extra={
        <Flex gap="small" justify="center">
          {onRetry && <Button onClick={onRetry}>{t('common.retry')}</Button>}
          <Button type="primary" icon={<ReloadOutlined />} onClick={() => window.location.reload()}>
            {t('common.reload')}
          </Button>
        </Flex>
      }
    />
  );
}

export type ErrorBoundaryProps = {
  children: ReactNode;
  /** When this value changes the boundary resets (e.g. the route path: leaving a broken page). */
  resetKey?: unknown;
  /** Shown instead of ErrorScreen (e.g. `null` for an optional widget). */
  fallback?: ReactNode;
};

interface ErrorBoundaryState {
  error: unknown;
  hasError: boolean;
}

/** Catches render errors of its subtree, reports them and shows ErrorScreen instead. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    reportError(error, { tags: { source: 'error-boundary' } });
    if (import.meta.env.DEV) console.error(error, info.componentStack);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.hasError && previous.resetKey !== this.props.resetKey) this.reset();
  }

  private readonly reset = () => this.setState({ error: null, hasError: false });

  override render() {
    if (this.state.hasError) {
      if (this.props.fallback !== undefined) return this.props.fallback;
      return <ErrorScreen error={this.state.error} onRetry={this.reset} />;
    }
    return this.props.children;
  }
}
