/** Reference data of the demo set: issue types, categories, services, texts. */
import type { TextPair } from '../lib/messages.ts';

export const ISSUE_TYPES = [
  { code: 'incident', titleEn: 'Security incident', titleRu: 'Инцидент ИБ' },
  { code: 'remediation', titleEn: 'Remediation', titleRu: 'Устранение недостатков' },
  { code: 'information', titleEn: 'Information', titleRu: 'Информационное сообщение' },
] as const;

/** Incident creation categories of product §A3, with their titles. */
export const INCIDENT_CATEGORIES = [
  ['DDoS', 'DoS/DDoS', 'DoS/DDoS'],
  [
    'unauthorizedAccessCompromised',
    'Unauthorized access / compromise',
    'Несанкционированный доступ / компрометация',
  ],
  ['scansAttemptedAccess', 'Scans and access attempts', 'Сканирование и попытки доступа'],
  ['bruteForce', 'Brute force', 'Подбор паролей'],
  ['vulnerability', 'Vulnerability', 'Уязвимость'],
  ['defacementDataManipulation', 'Defacement / data manipulation', 'Дефейс / изменение данных'],
  ['dataLeak', 'Data leak', 'Утечка данных'],
  ['malware', 'Malware', 'Вредоносное ПО'],
  ['malwareCCCoumunication', 'Malware C&C communication', 'Связь ВПО с управляющим сервером'],
  ['maliciousHost', 'Malicious host', 'Вредоносный узел'],
  ['phishing', 'Phishing', 'Фишинг'],
  ['spam', 'Spam', 'Спам'],
  ['fraud', 'Fraud', 'Мошенничество'],
  ['prohibitedContent', 'Prohibited content', 'Запрещённый контент'],
  ['socialEngineering', 'Social engineering', 'Социальная инженерия'],
  ['improperUsage', 'Improper usage', 'Нецелевое использование'],
  ['trafficHijacking', 'Traffic hijacking', 'Перехват трафика'],
  ['misconfiguration', 'Misconfiguration', 'Ошибка конфигурации'],
  ['suspiciousProcessActivity', 'Suspicious process activity', 'Подозрительная активность процессов'],
] as const;

export const REMEDIATION_CATEGORIES = [
  ['misconfiguration', 'Misconfiguration', 'Ошибка конфигурации'],
  ['vulnerability', 'Vulnerability', 'Уязвимость'],
  ['weakPasswordPolicy', 'Weak password policy', 'Слабая парольная политика'],
] as const;

export const INFORMATION_CATEGORIES = [
  ['eventSourceLost', 'Event source lost', 'Потеря источника событий'],
  ['threatIntel', 'Threat intelligence', 'Информация об угрозах'],
] as const;

export const SERVICE_NAMES = ['Vision', 'Horizon', 'Focus', 'Panorama'] as const;

/** Real ATT&CK technique ids with their tactic short names; names come from the STIX bundle at run time. */
export const TECHNIQUES: readonly (readonly [string, string])[] = [
  ['T1566.001', 'initial-access'],
  ['T1190', 'initial-access'],
  ['T1133', 'initial-access'],
  ['T1078', 'defense-evasion'],
  ['T1059.001', 'execution'],
  ['T1204.002', 'execution'],
  ['T1053.005', 'persistence'],
  ['T1547.001', 'persistence'],
  ['T1098', 'persistence'],
  ['T1055', 'privilege-escalation'],
  ['T1027', 'defense-evasion'],
  ['T1112', 'defense-evasion'],
  ['T1218.011', 'defense-evasion'],
  ['T1110', 'credential-access'],
  ['T1003.001', 'credential-access'],
  ['T1046', 'discovery'],
  ['T1021.001', 'lateral-movement'],
  ['T1071.001', 'command-and-control'],
  ['T1567.002', 'exfiltration'],
  ['T1486', 'impact'],
  ['T1498', 'impact'],
];

/** Summary templates per category: [en, ru]. `{host}`, `{ip}`, `{user}`, `{domain}` are filled in. */
export const SUMMARIES: Record<string, readonly TextPair[]> = {
  DDoS: [['Volumetric DDoS attack on {host}', 'Объёмная DDoS-атака на {host}']],
  unauthorizedAccessCompromised: [
    ['Successful logon of {user} from an unusual country', 'Успешный вход {user} из нетипичной страны'],
    ['Compromised account {user} used on {host}', 'Скомпрометированная учётная запись {user} на {host}'],
  ],
  scansAttemptedAccess: [['Network scan of the DMZ from {ip}', 'Сканирование DMZ с адреса {ip}']],
  bruteForce: [
    ['Password guessing against {user} on {host}', 'Подбор пароля к {user} на {host}'],
    ['RDP brute force from {ip}', 'Перебор паролей RDP с адреса {ip}'],
  ],
  vulnerability: [['Exploitable vulnerability found on {host}', 'Эксплуатируемая уязвимость на {host}']],
  defacementDataManipulation: [
    ['Unexpected change of web content on {domain}', 'Несанкционированное изменение контента {domain}'],
  ],
  dataLeak: [
    ['Large upload to a cloud storage from {host}', 'Крупная выгрузка в облачное хранилище с {host}'],
  ],
  malware: [
    ['Malware detected on {host}', 'Обнаружено ВПО на {host}'],
    ['Ransomware behaviour on {host}', 'Поведение шифровальщика на {host}'],
  ],
  malwareCCCoumunication: [
    ['Beaconing from {host} to {domain}', 'Периодические обращения {host} к {domain}'],
  ],
  maliciousHost: [
    ['Connection to a known malicious host {ip}', 'Соединение с известным вредоносным узлом {ip}'],
  ],
  phishing: [['Phishing e-mail delivered to {user}', 'Фишинговое письмо доставлено {user}']],
  spam: [['Spam campaign from {domain}', 'Спам-рассылка с домена {domain}']],
  fraud: [['Suspicious payment operation by {user}', 'Подозрительная платёжная операция {user}']],
  prohibitedContent: [['Prohibited content accessed from {host}', 'Доступ к запрещённому контенту с {host}']],
  socialEngineering: [['Vishing attempt against {user}', 'Попытка вишинга в отношении {user}']],
  improperUsage: [['Crypto mining on {host}', 'Майнинг криптовалюты на {host}']],
  trafficHijacking: [['DNS hijacking of {domain}', 'Перехват DNS домена {domain}']],
  misconfiguration: [['SMB signing disabled on {host}', 'Отключена подпись SMB на {host}']],
  suspiciousProcessActivity: [
    ['Encoded PowerShell started by {user} on {host}', 'Закодированный PowerShell запущен {user} на {host}'],
    ['LSASS memory access on {host}', 'Доступ к памяти LSASS на {host}'],
  ],
  weakPasswordPolicy: [
    ['Passwords never expire for service accounts', 'Бессрочные пароли у сервисных учётных записей'],
  ],
  eventSourceLost: [['No events from {host} for 2 hours', 'Нет событий от {host} в течение 2 часов']],
  threatIntel: [['New campaign targeting the sector', 'Новая кампания против отрасли']],
};

export const HOSTS = [
  'dc01',
  'dc02',
  'web-01',
  'web-02',
  'mail',
  'vpn-gw',
  'fs01',
  'sql-prod',
  'ws-0142',
  'ws-0219',
  'ws-0377',
  'k8s-node-3',
  'erp-app',
  'jump-01',
];
export const DOMAINS = [
  'update-check.info',
  'cdn-static.biz',
  'login-secure.top',
  'files-share.cc',
  'telemetry-api.xyz',
  'corp-mail.online',
];
export const TAGS = ['windows', 'linux', 'edr', 'active-directory', 'vpn', 'web', 'mail', 'cloud', 'network'];

export const CUSTOMER_COMMENTS: readonly TextPair[] = [
  ['We confirm this activity was not authorised.', 'Подтверждаем, что активность не была санкционирована.'],
  ['This is a planned penetration test, please close.', 'Это плановый пентест, просим закрыть.'],
  ['The host has been isolated, password reset done.', 'Хост изолирован, пароль сброшен.'],
  ['Could you share more details on the source?', 'Можете дать больше деталей по источнику?'],
  [
    'The user was on a business trip, the logon is legitimate.',
    'Пользователь в командировке, вход легитимный.',
  ],
];

export const SOC_COMMENTS: readonly TextPair[] = [
  ['We have blocked the indicator on the perimeter.', 'Индикатор заблокирован на периметре.'],
  ['Please confirm whether this activity is expected.', 'Просим подтвердить, ожидаема ли эта активность.'],
  [
    'Additional alerts were correlated with this incident.',
    'К инциденту привязаны дополнительные оповещения.',
  ],
  ['Recommendations were updated, see the Details tab.', 'Рекомендации обновлены, см. вкладку «Детали».'],
];

/** Resolutions per issue type: [code, kind, en, ru]. */
export const RESOLUTIONS: Record<string, readonly (readonly [string, 'TP' | 'FP', string, string])[]> = {
  incident: [
    ['confirmed', 'TP', 'True Positive', 'Подтверждён (True Positive)'],
    ['falsePositive', 'FP', 'False Positive', 'Ложное срабатывание (False Positive)'],
    ['legitimate', 'FP', 'Legitimate activity', 'Легитимная активность'],
    ['pentest', 'FP', 'Authorised penetration test', 'Санкционированный пентест'],
  ],
  remediation: [
    ['fixed', 'TP', 'Fixed', 'Устранено'],
    ['riskAccepted', 'FP', 'Risk accepted', 'Риск принят'],
  ],
  information: [
    ['acknowledged', 'TP', 'Acknowledged', 'Принято к сведению'],
    ['notRelevant', 'FP', 'Not relevant', 'Неактуально'],
  ],
};

/** Detection rule names used by the demo incidents (the rules catalogue arrives with issue 9). */
export const DETECTION_RULES = [
  'Suspicious PowerShell EncodedCommand',
  'Multiple failed logons for one account',
  'LSASS memory read by non-system process',
  'Outbound connection to newly registered domain',
  'Office application spawned a shell',
  'RDP logon from external address',
  'Mass file rename (ransomware)',
  'Scheduled task created remotely',
  'DNS tunnelling pattern',
  'Web shell request pattern',
];
