import { NOTIFICATION_DURATION_MS } from '@soc/contracts';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { createContext, useContext, useEffect, type ReactNode } from 'react';

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

/** Shows an error toast for NOTIFICATION_DURATION_MS (product §A9). */
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
 * The toast API of the app's notification holder (AppThemeProvider), for components that shape
 * their own toasts (actions, no time-out). antd's <App> would provide it too, but would also
 * bring the modal and message machinery into the shell (issue 14).
 */
export const NotificationApiContext = createContext<NotificationInstance | null>(null);

/** The app's toast API; throws outside AppThemeProvider. */
export function useNotificationApi(): NotificationInstance {
  const api = useContext(NotificationApiContext);
  if (!api) throw new Error('useNotificationApi must be used inside AppThemeProvider');
  return api;
}

/**
 * Connects the plain-function notifiers above to the app's notification holder, so that toasts
 * raised outside React (the API client) use the current theme and locale. Render once inside
 * NotificationApiContext.
 */
export function NotificationBridge() {
  const notification = useNotificationApi();
  useEffect(() => registerNotifier(notification), [notification]);
  return null;
}
