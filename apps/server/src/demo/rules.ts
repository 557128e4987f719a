import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rules } from '../db/schema/index.ts';
import type { TechniqueTactics } from '../modules/rules/index.ts';
import { importSigmaRules, readRuleFiles } from '../modules/rules/index.ts';
import { DETECTION_RULES, SERVICE_NAMES } from './catalog.ts';
import type { Rng } from './rng.ts';

const DAY = 86_400_000;

/**
 * Real ATT&CK technique ids (v18) with one tactic each, written by hand for the demo; names and
 * descriptions come from the STIX bundle at run time. The first ones are the most detected.
 */
const TECHNIQUES =
  `T1059.001 execution|T1003.001 credential-access|T1110.003 credential-access|T1021.001 lateral-movement
T1071.001 command-and-control|T1566.001 initial-access|T1053.005 persistence|T1547.001 persistence|T1486 impact
T1027 defense-evasion|T1190 initial-access|T1078 initial-access|T1055 privilege-escalation|T1562.001 defense-evasion
T1566.002 initial-access|T1133 initial-access|T1078.002 privilege-escalation|T1189 initial-access
T1195.002 initial-access|T1059.003 execution|T1059.004 execution|T1059.005 execution|T1059.006 execution
T1204.002 execution|T1047 execution|T1569.002 execution|T1106 execution|T1203 execution|T1053.003 persistence
T1543.003 persistence|T1136.001 persistence|T1098 persistence|T1505.003 persistence|T1546.003 persistence
T1574.001 persistence|T1055.001 privilege-escalation|T1068 privilege-escalation|T1548.002 privilege-escalation
T1134.001 privilege-escalation|T1036.005 defense-evasion|T1070.001 defense-evasion|T1070.004 defense-evasion
T1112 defense-evasion|T1140 defense-evasion|T1218.005 defense-evasion|T1218.010 defense-evasion
T1218.011 defense-evasion|T1562.004 defense-evasion|T1564.001 defense-evasion|T1110.001 credential-access
T1003.002 credential-access|T1003.003 credential-access|T1003.006 credential-access|T1558.003 credential-access
T1555.003 credential-access|T1552.001 credential-access|T1087.002 discovery|T1082 discovery|T1083 discovery
T1046 discovery|T1018 discovery|T1069.002 discovery|T1016 discovery|T1057 discovery|T1021.002 lateral-movement
T1021.006 lateral-movement|T1570 lateral-movement|T1550.002 lateral-movement|T1560.001 collection
T1005 collection|T1114.002 collection|T1113 collection|T1071.004 command-and-control|T1105 command-and-control
T1572 command-and-control|T1090.003 command-and-control|T1219 command-and-control|T1573.002 command-and-control
T1568.002 command-and-control|T1041 exfiltration|T1048.003 exfiltration|T1567.002 exfiltration|T1490 impact
T1489 impact|T1498 impact|T1499.002 impact|T1485 impact|T1595.002 reconnaissance|T1583.001 resource-development`
    .split(/[|\n]/)
    .map((pair) => pair.trim().split(' ') as [string, string]);
/** The first 14 techniques draw most rules, so the matrix shows every colour band. */
const HOT = 14;

/** The detection names incidents carry, with their mapping, so that a rule's incidents are real. */
const KNOWN: Record<string, { ru: string; cov: [string, string][]; cat: string }> = {
  'Suspicious PowerShell EncodedCommand': {
    ru: 'Подозрительный PowerShell с EncodedCommand',
    cov: [
      ['execution', 'T1059.001'],
      ['defense-evasion', 'T1027'],
    ],
    cat: 'Malware',
  },
  'Multiple failed logons for one account': {
    ru: 'Множественные неудачные входы одной учётной записи',
    cov: [['credential-access', 'T1110.001']],
    cat: 'Credential theft',
  },
  'LSASS memory read by non-system process': {
    ru: 'Чтение памяти LSASS несистемным процессом',
    cov: [['credential-access', 'T1003.001']],
    cat: 'Credential theft',
  },
  'Outbound connection to newly registered domain': {
    ru: 'Исходящее соединение с недавно зарегистрированным доменом',
    cov: [
      ['command-and-control', 'T1071.001'],
      ['resource-development', 'T1583.001'],
    ],
    cat: 'Network attack',
  },
  'Office application spawned a shell': {
    ru: 'Офисное приложение запустило командную оболочку',
    cov: [
      ['execution', 'T1204.002'],
      ['initial-access', 'T1566.001'],
    ],
    cat: 'Phishing',
  },
  'RDP logon from external address': {
    ru: 'Вход по RDP с внешнего адреса',
    cov: [
      ['lateral-movement', 'T1021.001'],
      ['initial-access', 'T1133'],
    ],
    cat: 'Lateral movement',
  },
  'Mass file rename (ransomware)': {
    ru: 'Массовое переименование файлов (шифровальщик)',
    cov: [['impact', 'T1486']],
    cat: 'Ransomware',
  },
  'Scheduled task created remotely': {
    ru: 'Удалённое создание задачи планировщика',
    cov: [
      ['persistence', 'T1053.005'],
      ['lateral-movement', 'T1021.002'],
    ],
    cat: 'Persistence',
  },
  'DNS tunnelling pattern': {
    ru: 'Признаки DNS-туннелирования',
    cov: [
      ['command-and-control', 'T1071.004'],
      ['exfiltration', 'T1048.003'],
    ],
    cat: 'Data exfiltration',
  },
  'Web shell request pattern': {
    ru: 'Признаки обращения к веб-шеллу',
    cov: [
      ['persistence', 'T1505.003'],
      ['initial-access', 'T1190'],
    ],
    cat: 'Web attack',
  },
};

const CATEGORIES = [
  'Malware',
  'Credential theft',
  'Lateral movement',
  'Persistence',
  'Network attack',
  'Reconnaissance',
  'Data exfiltration',
  'Policy violation',
  'Web attack',
  'Ransomware',
  'Phishing',
  'Privilege escalation',
  'Anomalous behaviour of privileged accounts',
];
const PLATFORMS: [string, number][] = [
  ['Windows', 10],
  ['Linux', 5],
  ['macOS', 2],
  ['Network Devices', 3],
  ['IaaS', 2],
  ['SaaS', 1],
  ['Containers', 1],
  ['Identity Provider', 1],
];
const SENSORS: [string, string, string][] = [
  ['Sysmon', 'Process creation', 'EDR'],
  ['Windows Event Log', 'Security', 'SIEM'],
  ['Windows Event Log', 'PowerShell', 'SIEM'],
  ['Suricata', 'HTTP', 'NIDS'],
  ['Zeek', 'DNS', 'NDR'],
  ['Auditd', 'Syscalls', 'HIDS'],
  ['Kaspersky EDR', 'Behaviour', 'EDR'],
  ['PT Network Attack Discovery', 'Sessions', 'NDR'],
  ['FortiGate', 'Firewall', 'NGFW'],
  ['Microsoft 365', 'Unified audit', 'Cloud'],
  ['AWS CloudTrail', 'Management events', 'Cloud'],
  ['Squid', 'Access log', 'Proxy'],
];
const SUBJECTS: [string, string][] = [
  ['process creation by an Office application', 'создание процесса офисным приложением'],
  ['service installation', 'установка службы'],
  ['registry Run key change', 'изменение ключа автозапуска в реестре'],
  ['logon with explicit credentials', 'вход с явными учётными данными'],
  ['use of a living-off-the-land binary', 'использование системной утилиты (LOLBin)'],
  ['outbound SMB traffic', 'исходящий трафик SMB'],
  ['archive creation in a temporary folder', 'создание архива во временной папке'],
  ['LDAP enumeration', 'перечисление LDAP'],
  ['Kerberos service ticket request', 'запрос сервисного билета Kerberos'],
  ['remote WMI execution', 'удалённое выполнение через WMI'],
  ['security log clearing', 'очистка журнала безопасности'],
  ['firewall rule change', 'изменение правила межсетевого экрана'],
  ['access to browser credential store', 'доступ к хранилищу паролей браузера'],
  ['large upload to cloud storage', 'крупная выгрузка в облачное хранилище'],
  ['connection to a TOR node', 'соединение с узлом TOR'],
  ['shadow copy deletion', 'удаление теневых копий'],
  ['new local administrator', 'новый локальный администратор'],
  ['script execution from a user profile', 'запуск сценария из профиля пользователя'],
  ['DLL load from an unusual path', 'загрузка DLL из нетипичного пути'],
  ['port scan from an internal host', 'сканирование портов с внутреннего узла'],
  ['mailbox forwarding rule', 'правило пересылки почтового ящика'],
  ['remote access tool start', 'запуск средства удалённого доступа'],
  ['cron job change', 'изменение задания cron'],
  ['SSH brute force', 'подбор пароля SSH'],
  ['web request with an injection payload', 'веб-запрос с попыткой внедрения'],
  ['process injection into a system process', 'внедрение в системный процесс'],
  ['UAC bypass', 'обход UAC'],
  ['file download by a certificate utility', 'загрузка файла утилитой сертификатов'],
  ['screen capture', 'снимок экрана'],
  ['stopping of a security service', 'остановка службы безопасности'],
];
const MODIFIERS: [string, string][] = [
  ['Suspicious {s}', 'Подозрительное событие: {s}'],
  ['Anomalous {s}', 'Аномалия: {s}'],
  ['Rare {s}', 'Редкое событие: {s}'],
  ['{s} outside working hours', '{s} в нерабочее время'],
  ['{s} by a service account', '{s} сервисной учётной записью'],
  ['{s} on a domain controller', '{s} на контроллере домена'],
  ['{s} from an external address', '{s} с внешнего адреса'],
  ['Repeated {s}', 'Повторяющееся событие: {s}'],
  ['{s} after a phishing e-mail', '{s} после фишингового письма'],
  ['{s} on a server', '{s} на сервере'],
];
const LEVELS = [
  ['Critical', 1],
  ['High', 3],
  ['Medium', 4],
  ['Low', 2],
] as const;

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const techniqueUrl = (id: string) => `https://attack.mitre.org/techniques/${id.replace('.', '/')}/`;

function pickSome<T>(rng: Rng, items: readonly T[], n: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < n && pool.length) out.push(pool.splice(rng.int(0, pool.length - 1), 1)[0]!);
  return out;
}

/** Where the demo's catalogue takes real rules from instead of generating them (`--sigma`). */
export interface DemoSigmaSource {
  /** A folder of Sigma rules, e.g. the `rules` folder of a SigmaHQ checkout. */
  folder: string;
  tacticsOf?: TechniqueTactics;
}

/**
 * Detection rules (issue 9): the detection names the demo incidents carry, then generated rules
 * up to `count`, each mapped to one to three real ATT&CK techniques. With `sigma`, the rules after
 * the detection names are Sigma rules of that folder instead (issue 30): `count` files drawn by
 * the seeded stream from the folder's files in name order, imported as `npm run admin -- rules
 * import-sigma` would, then given service levels, activation modes and creation dates like the
 * generated ones. Nothing is copied into the repository.
 */
export async function generateDemoRules(
  db: Db,
  { rng, now, count = 280, sigma }: { rng: Rng; now: Date; count?: number; sigma?: DemoSigmaSource },
): Promise<number> {
  const rows: (typeof rules.$inferInsert)[] = [];
  const names = new Set<string>();
  const add = (en: string, ru: string, cov: [string, string][], category: string | null) => {
    names.add(en);
    const mitreCov: Record<string, string[]> = {};
    for (const [tactic, id] of cov) {
      const list = (mitreCov[tactic] ??= []);
      if (!list.includes(id)) list.push(id);
    }
    const techniques = new Set<string>();
    for (const [, id] of cov) {
      techniques.add(id);
      if (id.includes('.')) techniques.add(id.split('.')[0]!);
    }
    const levels = new Set(pickSome(rng, SERVICE_NAMES, rng.int(1, 3)));
    const sensors = pickSome(rng, SENSORS, rng.int(1, 3));
    const platforms = new Set([rng.weighted(PLATFORMS)]);
    if (rng.chance(0.3)) platforms.add(rng.weighted(PLATFORMS));
    const categories = new Set(category ? [category] : []);
    for (const c of pickSome(rng, CATEGORIES, rng.int(category ? 0 : 1, 4))) categories.add(c);
    const recent = rng.chance(0.08);
    const created = new Date(
      now.getTime() - (recent ? rng.int(1, 29) : rng.int(31, 720)) * DAY - rng.int(0, DAY - 1),
    );
    const hasDescription = rng.chance(0.8);
    const ids = [...new Set(cov.map(([, id]) => id))];
    rows.push({
      ruleId: `SOC-R-${String(rows.length + 1).padStart(4, '0')}`,
      name: en,
      captionEn: en,
      captionRu: ru,
      descriptionEn: hasDescription
        ? `Raises an alert on ${en.toLowerCase()}. Maps to ATT&CK ${ids.join(', ')}. Check the host and the account involved, then confirm or close the incident.`
        : '',
      descriptionRu: hasDescription
        ? `Срабатывает при событии «${ru}». Соответствует ATT&CK ${ids.join(', ')}. Проверьте узел и учётную запись, затем подтвердите или закройте инцидент.`
        : '',
      severity: rng.weighted(LEVELS),
      confidence: rng.weighted(LEVELS),
      categories: [...categories],
      availableForServices: SERVICE_NAMES.filter((l) => levels.has(l)),
      activationMode: rng.chance(0.8) ? 'auto' : 'manual',
      isRequested: rng.chance(0.1),
      mitreCov,
      tactics: Object.keys(mitreCov),
      techniques: [...techniques].sort(),
      platforms: [...platforms],
      links: rng.chance(0.6) ? ids.map((id) => ({ title: `MITRE ATT&CK ${id}`, url: techniqueUrl(id) })) : [],
      sensorTuples: sensors.map(([sensor, module, type]) => ({
        sensor,
        sensor_module: module,
        sensor_type: type,
      })),
      sensors: [...new Set(sensors.map((s) => s[0]))],
      sensorModules: [...new Set(sensors.map((s) => s[1]))],
      sensorTypes: [...new Set(sensors.map((s) => s[2]))],
      created,
    });
  };

  for (const name of DETECTION_RULES) {
    const known = KNOWN[name];
    if (!known) throw new Error(`No rule mapping for the demo detection "${name}"`);
    add(name, known.ru, known.cov, known.cat);
  }
  if (sigma) {
    await db.insert(rules).values(rows);
    return rows.length + (await demoSigmaRules(db, sigma, { rng, now, count: count - rows.length }));
  }
  for (let attempt = 0; rows.length < count && attempt < count * 20; attempt++) {
    const [subjectEn, subjectRu] = rng.pick(SUBJECTS);
    const [modEn, modRu] = rng.pick(MODIFIERS);
    const en = capitalise(modEn.replace('{s}', subjectEn));
    if (names.has(en)) continue;
    const cov: [string, string][] = [];
    for (let i = rng.int(1, 3); i > 0; i--) {
      const [id, tactic] = rng.chance(0.55) ? TECHNIQUES[rng.int(0, HOT - 1)]! : rng.pick(TECHNIQUES);
      cov.push([tactic, id]);
    }
    add(en, capitalise(modRu.replace('{s}', subjectRu)), cov, null);
  }
  for (let i = 0; i < rows.length; i += 200) await db.insert(rules).values(rows.slice(i, i + 200));
  return rows.length;
}

/** `count` Sigma rules of a folder (see generateDemoRules); returns how many were imported. */
async function demoSigmaRules(
  db: Db,
  { folder, tacticsOf }: DemoSigmaSource,
  { rng, now, count }: { rng: Rng; now: Date; count: number },
): Promise<number> {
  const { files } = await readRuleFiles(folder);
  const chosen = pickSome(rng, files, count).sort((a, b) => (a.name < b.name ? -1 : 1));
  const report = await importSigmaRules(
    { db, tacticsOf },
    { files: chosen, failures: [] },
    { activation: 'auto', dry_run: false },
  );
  const ids = await db
    .select({ id: rules.id })
    .from(rules)
    .where(inArray(rules.source, ['sigma']))
    .orderBy(rules.ruleId);
  for (const { id } of ids) {
    const levels = new Set(pickSome(rng, SERVICE_NAMES, rng.int(1, 3)));
    const recent = rng.chance(0.08);
    await db
      .update(rules)
      .set({
        availableForServices: SERVICE_NAMES.filter((l) => levels.has(l)),
        activationMode: rng.chance(0.8) ? 'auto' : 'manual',
        created: new Date(
          now.getTime() - (recent ? rng.int(1, 29) : rng.int(31, 720)) * DAY - rng.int(0, DAY - 1),
        ),
      })
      .where(eq(rules.id, id));
  }
  return report.created;
}
