/** Texts of the notification centre's panel (issue 40); the bell's label is in the shell's `header`. */
export const inboxEn = {
  title: 'Notifications',
  markAllRead: 'Mark all read',
  markFailed: 'Could not mark the notifications read',
  loadFailed: 'Could not load the notifications',
  empty: 'No notifications yet',
  emptyUnread: 'No unread notifications',
  unreadOnly: 'Unread only',
  loadMore: 'Show more',
  unread: 'Unread',
  settings: 'Notification settings',
  kind: {
    incident_created: 'New incident #{{key}}',
    status_changed: 'Incident #{{key}}: status changed to “{{status}}”',
    status_changed_unknown: 'Incident #{{key}}: status changed',
    comment: 'New comment on incident #{{key}}',
    report_ready: 'Report ready',
    task_answer: 'The SOC answered request #{{id}}',
  },
};
