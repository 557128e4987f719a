import { INCIDENT_PRIORITY_TITLES, INCIDENT_STATUS_TITLES } from '@soc/contracts';
import { dashboardEn } from '../../../features/dashboard/i18n/en.ts';
import { settingsEn } from '../../../features/settings/i18n/en.ts';
import { filesEn } from '../../../features/files/i18n/en.ts';
import { authEn } from '../../../features/auth/i18n/en.ts';
import { incidentsEn } from '../../../features/incidents/i18n/en.ts';
/** English catalog. Keys are grouped by screen; ru.ts must hold exactly the same keys. */
export const en = {
  // the ATT&CK matrix of the dashboard and of Rules → MITRE: in the shell's texts, so that the
  // dashboard loads none of the rules screens' texts
  attackMatrix: {
    techniques_one: '{{count, number}} technique',
    techniques_other: '{{count, number}} techniques',
    open: 'Show sub-techniques of {{id}}',
    close: 'Hide sub-techniques of {{id}}',
    gapTitle: 'in the compared layer, no rule',
    gapInSubsTitle: 'a sub-technique is in the compared layer without a rule',
  },
  list: {
    nothingFoundFor: 'Nothing found for “{{search}}”.',
    nothingFoundForWithFilters_one: 'Nothing found for “{{search}}” with the filter in use.',
    nothingFoundForWithFilters_other: 'Nothing found for “{{search}}” with the {{count}} filters in use.',
    nothingMatchesFilters_one: 'Nothing matches the filter in use.',
    nothingMatchesFilters_other: 'Nothing matches the {{count}} filters in use.',
    clearFilters: 'Clear the search and filters',
    closePanel: 'Close the details',
    details: 'Details',
  },
  common: {
    loading: 'Loading…',
    reload: 'Reload',
    retry: 'Try again',
    loadingMore: 'Loading more…',
    loadMoreFailed: 'Could not load more',
    cancel: 'Cancel',
    logout: 'Logout',
    searchTooLong: 'The search is too long (at most {{max}} characters)',
    commentSource: {
      web: 'Web or API',
      email: 'E-mail from an authorised user',
      unverified: 'E-mail from an unverified sender',
    },
    bytes_one: '{{count, number}} byte',
    bytes_other: '{{count, number}} bytes',
  },
  app: {
    defaultPortalName: 'SOC Portal',
    homeLink: '{{portalName}}: home',
    logoAlt: '{{portalName}} logo',
    titleTemplate: '{{title}} | {{portalName}}',
  },
  menu: {
    label: 'Main menu',
    dashboard: 'Dashboard',
    issues: 'Issues',
    incidents: 'Incidents',
    alerts: 'Alerts',
    misconfigs: 'Security recommendations',
    tasks: 'Tasks',
    tenants: 'Systems',
    logSources: 'Log sources',
    reports: 'Reports',
    docs: 'Documentation',
    assets: 'Assets',
    beta: 'Beta',
  },
  pages: {
    dashboard: 'Dashboard',
    incidents: 'Incidents',
    incident: 'Incident {{incNumber}}',
    rule: 'Rule {{id}}',
    tasks: 'Tasks',
    misconfigs: 'Security recommendations',
    alerts: 'Alerts',
    tenants: 'Systems',
    docs: 'Documentation',
    reports: 'Reports',
    logSources: 'Log sources',
    assets: 'Assets',
    files: 'Files',
    instruction: 'Instruction {{id}}',
    responseInstruction: 'Response instruction {{id}}',
    article: 'Article {{id}}',
  },
  header: {
    language: 'Language: {{current}}. Switch to {{next}}',
    darkTheme: 'Dark theme',
    profile: 'Profile menu of {{name}}',
    menuTitle: 'Menu',
    openMenu: 'Open the menu',
    closeMenu: 'Close the menu',
  },
  profile: {
    changePassword: 'Security',
    logout: 'Logout',
  },
  footer: {
    version: 'Version {{version}}',
  },
  auth: authEn,
  incidentStatus: INCIDENT_STATUS_TITLES.en,
  incidentPriority: INCIDENT_PRIORITY_TITLES.en,
  incidentResolution: {
    TP: 'True Positive',
    FP: 'False Positive',
  },
  dashboard: dashboardEn,
  incidents: incidentsEn,
  dateRange: {
    startDate: 'From',
    endDate: 'To',
    presets: {
      last7Days: 'Last 7 days',
      last30Days: 'Last 30 days',
      thisMonth: 'This month',
      lastMonth: 'Last month',
    },
  },
  uploads: {
    dropHint: 'Drag files here or',
    chooseFiles: 'Choose files',
    filesHint: 'Up to {{max}} files, each up to {{size}} MB',
    removeFile: 'Remove {{name}}',
    notAttached: 'Not attached',
    fileTooLarge: '{{name}} is larger than {{size}} MB and was not attached',
    dangerousExtension:
      '{{name}}: files of type .{{extension}} are not accepted; pack the file into a password-protected archive',
    bidiName:
      '{{name}}: the name contains text-direction control characters that can disguise the file type; rename the file',
  },
  downloads: {
    title: 'Downloads',
    retry: 'Download {{name}} again',
    remove: 'Remove {{name}} from the list',
    progress: 'Progress of {{name}}',
    failed: 'Download failed',
  },
  validation: {
    required: 'This field is required',
  },
  errors: {
    requestFailed: 'Request failed',
    network: 'The server could not be reached. Check your connection and try again.',
    invalidResponse: 'The server sent an unexpected response.',
    httpStatus: 'Server error {{status}}',
    retryAfter: 'Try again in {{seconds}} s.',
    storageQuota:
      'The storage quota of this system is used up ({{used}} of {{quota}} GB stored). Delete files that are no longer needed or ask the SOC to raise the quota.',
    unexpectedTitle: 'Something went wrong',
    unexpectedText: 'An unexpected error occurred on this page. Reload the page or try again.',
    chunk: {
      missingTitle: 'Part of the application is missing',
      missingText: 'The application was probably updated. Reload the page to get the new version.',
      timeoutTitle: 'The page is taking too long to load',
      timeoutText: 'Check your connection and reload the page.',
      otherTitle: 'The page could not be loaded',
      otherText: 'Reload the page. If the problem persists, contact support.',
    },
  },
  version: {
    available: 'A new version is available',
    description: 'Reload the page to start using it.',
    reload: 'Reload',
    whatsNew: "What's new",
  },
  settings: settingsEn,
  files: filesEn,
};
