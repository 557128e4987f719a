/** Texts of the IOC feed page (issue 29 §3). */
export const iocFeedEn = {
  title: 'IOC feed',
  intro:
    'Your firewall, EDR or threat intelligence platform can import the indicators of compromise (IOCs) that the SOC observed in the incidents of your systems. Point the tool at one of the URLs below and send a personal API token as the header Authorization: Bearer <token>.',
  tokensLink: 'Create a personal API token',
  filters: 'What the feed holds',
  types: 'IOC types',
  typesPlaceholder: 'All types',
  statuses: 'Incident statuses',
  statusesPlaceholder: 'All statuses',
  formats: 'Feed URLs',
  format: {
    stix: 'STIX 2.1 bundle',
    csv: 'CSV',
    txt: 'Plain text',
  },
  formatHint: {
    stix: 'Indicator objects with STIX patterns, for threat intelligence platforms (TAXII clients, MISP, OpenCTI). Ids stay the same from poll to poll.',
    csv: 'One row per indicator: value, type, system, first and last seen, incidents, categories, STIX id.',
    txt: 'One value per line, distinct across your systems: what firewalls and EDRs import. Choose one IOC type for each list (for example IPv4 addresses).',
  },
  copy: 'Copy',
  copied: 'Copied to the clipboard',
  copyFailed: 'Could not copy: select the text and copy it yourself',
  curl: 'Example',
  curlHint:
    'The answer carries an ETag: a tool that polls every minute sends it back in If-None-Match and gets 304 Not Modified, with no body, until the IOCs change. Long feeds come in pages; the next page is in the Link header.',
  tokenPlaceholder: '<your token>',
  preview: 'Preview',
  previewHint: 'The first {{count}} indicators of the feed with these filters.',
  empty: 'No IOCs match these filters yet',
  loadFailed: 'Could not load the feed',
  columns: {
    indicator: 'Indicator',
    pattern: 'STIX pattern',
    system: 'System',
    incidents: 'Incidents',
  },
};
