import { NOTIFICATION_DURATION_MS } from '@soc/contracts';
import { App } from 'antd';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { useEffect, type ReactNode } from 'react';

let notifier: NotificationInstance | null = null;

/** What a toast shows. */
export interface NotifyOptions {
  title: ReactNode;
  /** A single text, or lines shown one under another (e.g. `field: message`). */
  description?: ReactNode | string[];
  /** Deduplicates: a toast with the same key replaces the previous one. */
  key?: string;
}

const toDescription = (description: NotifyOptions['description']): ReactNode =>
  Array.isArray(description) ? description.map((line, index) => <div key={index}>{line}</div>) : description;

const show = (type: 'error' | 'success' | 'warning' | 'info', options: NotifyOptions) => {
  if (!notifier) {
    // Before the app has mounted (or in a unit test without it) there is nowhere to show it.
    console.warn(`[${type}]`, options.title);
    return;
  }
  notifier[type]({
    title: options.title,
    description: toDescription(options.description),
    duration: NOTIFICATION_DURATION_MS / 1000,
    ...(options.key ? { key: options.key } : {}),
    props: { 'data-testid': `notification-${type}` },
  });
};

/** Shows an error toast for NOTIFICATION_DURATION_MS (spec 000 §9). */
export const notifyError = (options: NotifyOptions): void => show('error', options);
/** Shows a success toast for NOTIFICATION_DURATION_MS. */
export const notifySuccess = (options: NotifyOptions): void => show('success', options);
/** Shows a warning toast for NOTIFICATION_DURATION_MS. */
export const notifyWarning = (options: NotifyOptions): void => show('warning', options);

/**
 * Sets where toasts go (the bridge below; tests pass a fake). Returns the function that
 * unregisters it again.
 */
export function registerNotifier(instance: NotificationInstance): () => void {
  notifier = instance;
  return () => {
    if (notifier === instance) notifier = null;
  };
}

/**
 * Connects the plain-function notifiers above to antd's App context, so that toasts raised
 * outside React (the API client) use the current theme and locale. Render once inside <App>.
 */
export function NotificationBridge() {
  const { notification } = App.useApp();
  useEffect(() => registerNotifier(notification), [notification]);
  return null;
}
