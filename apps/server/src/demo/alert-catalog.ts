import type { AlertEvent } from '../db/schema/index.ts';

// What the demo's alerts are made of: alert kinds with their process chains, tags, response
// teams, link templates and misconfigurations (alerts.ts writes them in SQL).

type EventTemplate = Omit<AlertEvent, 'host' | 'user'> & { host?: string; user?: string };

interface AlertTemplate {
  title: string;
  severity: 'High' | 'Medium' | 'Low';
  platform: 'windows' | 'linux' | 'network' | 'mail' | 'cloud';
  rule: string;
  source_tag: string;
  description: string;
  /** Events with `{host}`, `{user}`, `{ip}`, `{hash}` placeholders; `dt` in ms after the alert. */
  events: EventTemplate[];
}

const ev = (
  id: string,
  parent: string | null,
  dt: number,
  process: string,
  pid: number,
  cmdline: string,
  extra: Partial<AlertEvent> = {},
): EventTemplate => ({ id, parent, dt, process, pid, cmdline, host: '{host}', user: 'SYSTEM', ...extra });

/** Realistic alert kinds; each carries the process chain its events show. */
export const ALERT_TEMPLATES: readonly AlertTemplate[] = [
  {
    title: 'Encoded PowerShell started by an Office document',
    severity: 'High',
    platform: 'windows',
    rule: 'WIN-PS-ENC-001',
    source_tag: 'EDR: Office child process',
    description:
      'winword.exe spawned cmd.exe and an encoded PowerShell command that reached out to the internet.',
    events: [
      ev('e1', null, 0, 'explorer.exe', 4120, 'C:\\Windows\\explorer.exe'),
      ev(
        'e2',
        'e1',
        1500,
        'winword.exe',
        6312,
        '"WINWORD.EXE" /n "C:\\Users\\{user}\\Downloads\\invoice_0425.docm"',
      ),
      ev('e3', 'e2', 9100, 'cmd.exe', 7020, 'cmd.exe /c powershell -nop -w hidden -enc JABzAD0ATgBlAHcA'),
      ev('e4', 'e3', 9400, 'powershell.exe', 7144, 'powershell -nop -w hidden -enc JABzAD0ATgBlAHcA', {
        matched: true,
        dst_ip: '{ip}',
        domain: 'cdn-{hash4}.example.net',
        action: 'network_connect',
      }),
      ev('e5', 'e4', 12_800, 'rundll32.exe', 7388, 'rundll32.exe C:\\ProgramData\\{hash4}.dll,Start', {
        file_hash: '{hash}',
        action: 'image_load',
      }),
    ],
  },
  {
    title: 'Credential dumping from LSASS memory',
    severity: 'High',
    platform: 'windows',
    rule: 'WIN-CRED-LSASS-004',
    source_tag: 'Sysmon: ProcessAccess lsass.exe',
    description: 'A process opened lsass.exe with read access typical of Mimikatz-like tools.',
    events: [
      ev('e1', null, 0, 'services.exe', 640, 'C:\\Windows\\system32\\services.exe'),
      ev('e2', 'e1', 2000, 'svchost.exe', 1880, 'svchost.exe -k netsvcs'),
      ev('e3', 'e2', 4000, 'cmd.exe', 5208, 'cmd.exe /c C:\\Temp\\pd64.exe -accepteula -ma lsass.exe', {
        user: '{user}',
      }),
      ev('e4', 'e3', 4300, 'pd64.exe', 5312, 'pd64.exe -accepteula -ma lsass.exe C:\\Temp\\l.dmp', {
        matched: true,
        file_hash: '{hash}',
        action: 'process_access',
      }),
    ],
  },
  {
    title: 'Brute force against SSH',
    severity: 'Medium',
    platform: 'linux',
    rule: 'LNX-SSH-BF-010',
    source_tag: 'auditd: sshd failures',
    description: 'More than 50 failed SSH logins from one address within five minutes.',
    events: [
      ev('e1', null, 0, 'systemd', 1, '/sbin/init'),
      ev('e2', 'e1', 10, 'sshd', 912, '/usr/sbin/sshd -D'),
      ev('e3', 'e2', 60_000, 'sshd', 31_020, 'sshd: root [priv]', {
        matched: true,
        src_ip: '{ip}',
        action: 'auth_failure',
        user: 'root',
      }),
      ev('e4', 'e2', 61_500, 'sshd', 31_044, 'sshd: admin [priv]', {
        matched: true,
        src_ip: '{ip}',
        action: 'auth_failure',
        user: 'admin',
      }),
    ],
  },
  {
    title: 'Beaconing to a known command-and-control address',
    severity: 'High',
    platform: 'network',
    rule: 'NET-C2-BEACON-002',
    source_tag: 'NGFW: threat intel match',
    description: 'Periodic HTTPS connections every 60 seconds to an address listed as C2.',
    events: [
      ev('e1', null, 0, 'svchost.exe', 2210, 'svchost.exe -k LocalService'),
      ev('e2', 'e1', 800, 'updater.exe', 8120, 'C:\\Users\\{user}\\AppData\\Roaming\\updater.exe --silent', {
        file_hash: '{hash}',
      }),
      ev('e3', 'e2', 60_800, 'updater.exe', 8120, 'TLS to {ip}:443', {
        matched: true,
        dst_ip: '{ip}',
        action: 'network_connect',
      }),
    ],
  },
  {
    title: 'Phishing mail with a malicious link delivered',
    severity: 'Medium',
    platform: 'mail',
    rule: 'MAIL-PHISH-URL-003',
    source_tag: 'Mail gateway: URL reputation',
    description: 'A message with a link to a credential-harvesting page reached a mailbox.',
    events: [
      ev('e1', null, 0, 'smtp-gw', 301, 'receive from billing@secure-bank.example.com', {
        src_ip: '{ip}',
        action: 'mail_received',
      }),
      ev('e2', 'e1', 900, 'outlook.exe', 9120, 'OUTLOOK.EXE /recycle', { user: '{user}' }),
      ev('e3', 'e2', 45_000, 'msedge.exe', 9540, 'msedge.exe https://login-{hash4}.example.org/owa', {
        matched: true,
        domain: 'login-{hash4}.example.org',
        action: 'url_open',
      }),
    ],
  },
  {
    title: 'New local administrator created',
    severity: 'Low',
    platform: 'windows',
    rule: 'WIN-ACC-ADMIN-007',
    source_tag: 'Windows Security 4732',
    description: 'An account was added to the local Administrators group outside a change window.',
    events: [
      ev('e1', null, 0, 'mmc.exe', 3320, 'mmc.exe lusrmgr.msc', { user: '{user}' }),
      ev('e2', 'e1', 30_000, 'net.exe', 3410, 'net localgroup administrators support_tmp /add', {
        matched: true,
        action: 'group_member_added',
      }),
    ],
  },
  {
    title: 'Access to a cloud storage bucket from an unusual country',
    severity: 'Low',
    platform: 'cloud',
    rule: 'CLD-GEO-ANOM-005',
    source_tag: 'Cloud audit log',
    description: 'Objects were listed and downloaded from a bucket by a key never seen from this location.',
    events: [
      ev('e1', null, 0, 'api-gateway', 1, 'ListObjects backup-bucket', {
        src_ip: '{ip}',
        action: 'list',
        user: '{user}',
      }),
      ev('e2', 'e1', 20_000, 'api-gateway', 1, 'GetObject backup-bucket/db.tar.gz', {
        matched: true,
        src_ip: '{ip}',
        action: 'download',
        user: '{user}',
      }),
    ],
  },
];

/** Tags each demo system uses on its alerts. */
export const DEMO_TAGS: readonly [string, string][] = [
  ['phishing', 'volcano'],
  ['lateral-movement', 'red'],
  ['vip-host', 'gold'],
  ['edr', 'blue'],
  ['needs-review', 'purple'],
  ['c2', 'magenta'],
  ['ransomware-precursor', 'red'],
  ['false-positive-candidate', 'green'],
];
export const DEMO_TEAMS = ['Blue team', 'IT operations', 'Network team', 'Service desk'];

/** Link templates offered for every system. */
export const DEMO_LINK_TEMPLATES = [
  {
    name: 'VirusTotal: IP address',
    field: 'dst_ip',
    urlTemplate: 'https://www.virustotal.com/gui/ip-address/{value}',
  },
  { name: 'AbuseIPDB', field: 'src_ip', urlTemplate: 'https://www.abuseipdb.com/check/{value}' },
  {
    name: 'VirusTotal: file',
    field: 'file_hash',
    urlTemplate: 'https://www.virustotal.com/gui/file/{value}',
  },
  {
    name: 'URLhaus: host',
    field: 'domain',
    urlTemplate: 'https://urlhaus.abuse.ch/browse.php?search={value}',
  },
];

export const MISCONFIG_TEMPLATES: readonly [
  string,
  string,
  string,
  'critical' | 'high' | 'medium' | 'low',
][] = [
  [
    'SMBv1 enabled',
    'The host still accepts SMBv1 connections.',
    'Disable SMBv1 through group policy.',
    'high',
  ],
  [
    'RDP exposed to the internet',
    'TCP 3389 is reachable from outside the perimeter.',
    'Close the port and use the VPN gateway.',
    'critical',
  ],
  [
    'Outdated TLS versions',
    'TLS 1.0 and 1.1 are still negotiated.',
    'Allow TLS 1.2 and later only.',
    'medium',
  ],
  [
    'Local admin password reused',
    'The same local administrator password is set on several hosts.',
    'Deploy LAPS.',
    'high',
  ],
  [
    'Audit policy incomplete',
    'Process creation events (4688) are not logged.',
    'Enable process creation auditing with command lines.',
    'low',
  ],
  [
    'Default SNMP community',
    'The device answers to the "public" community.',
    'Change the community or move to SNMPv3.',
    'medium',
  ],
];
