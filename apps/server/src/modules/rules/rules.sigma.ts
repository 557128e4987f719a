import type { RuleLevel, RuleLink, SensorTuple, SigmaSkipReason } from '@soc/contracts';
import { SIGMA_IMPORT_LIMITS, isRuleLinkUrl } from '@soc/contracts';
import type { Localized } from '../../lib/messages.ts';
import { msg } from '../../lib/messages.ts';
import type { YamlRead } from './rules.sigma-yaml.ts';
import { readSigmaYaml } from './rules.sigma-yaml.ts';

/**
 * Sigma rules (format 2.x, https://github.com/SigmaHQ/sigma-specification) read into the fields
 * of the rule catalogue (issue 30). Pure: text in, a rule, a skip with its reason or an error out.
 *
 * Mapping: `id` → rule_id, `title` → caption (en; ru stays empty until translated) and detection
 * name, `description`, `level` → severity, `status` → confidence (stable High, test Medium,
 * experimental or none Low), `tags` `attack.tNNNN[.NNN]` → techniques and `attack.<tactic>` →
 * tactics (mitre_cov), `logsource` → one sensor tuple (product, service, category), `references`
 * → links (http(s) only), `author`, `date`/`modified`, `falsepositives`. Skipped: deprecated and unsupported
 * rules, informational ones (no alert) and those without a level, correlation and filter rules,
 * multi-document collections.
 */

/** ATT&CK tactics by Sigma tag (short names; v18 split defense-evasion into stealth and defense-impairment). */
export const SIGMA_TACTICS = [
  'reconnaissance',
  'resource-development',
  'initial-access',
  'execution',
  'persistence',
  'privilege-escalation',
  'defense-evasion',
  'stealth',
  'defense-impairment',
  'credential-access',
  'discovery',
  'lateral-movement',
  'collection',
  'command-and-control',
  'exfiltration',
  'impact',
] as const;
const TACTICS = new Set<string>(SIGMA_TACTICS);
/** attack.t1059.001, and the groups, software, data sources and mitigations Sigma also tags. */
const ATTACK_TECHNIQUE = /^t\d{4}(\.\d{3})?$/;
const ATTACK_OTHER = /^(g|s|ds|m)\d{4}$/;
/** Tag namespaces of the Sigma specification besides `attack`. */
const OTHER_NAMESPACES = new Set(['car', 'cve', 'd3fend', 'detection', 'stp', 'tlp']);

const LEVELS: Record<string, RuleLevel | 'informational'> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  informational: 'informational',
};
const CONFIDENCE: Record<string, RuleLevel> = { stable: 'High', test: 'Medium', experimental: 'Low' };
/** ATT&CK platforms of the log source products that have one. */
const PLATFORMS: Record<string, string> = {
  windows: 'Windows',
  linux: 'Linux',
  macos: 'macOS',
  aws: 'IaaS',
  azure: 'IaaS',
  gcp: 'IaaS',
  m365: 'Office Suite',
  okta: 'Identity Provider',
  onelogin: 'Identity Provider',
  google_workspace: 'SaaS',
  github: 'SaaS',
};

/** The catalogue fields of one Sigma rule. */
export interface SigmaRule {
  ruleId: string;
  title: string;
  description: string;
  severity: RuleLevel;
  confidence: RuleLevel;
  status: string;
  mitreCov: Record<string, string[]>;
  tactics: string[];
  techniques: string[];
  platforms: string[];
  links: RuleLink[];
  sensorTuples: SensorTuple[];
  author: string;
  authoredOn: string | null;
  modifiedOn: string | null;
  falsePositives: string[];
  yaml: string;
}

export type SigmaParse =
  | { kind: 'rule'; rule: SigmaRule }
  | { kind: 'skip'; ruleId: string | null; reason: SigmaSkipReason; message: Localized }
  | { kind: 'error'; message: Localized };

/** ATT&CK tactics of a technique id (upper case), when the ATT&CK data is at hand. */
export type TechniqueTactics = (id: string) => readonly string[] | undefined;

const error = (message: Localized): SigmaParse => ({ kind: 'error', message });
const isText = (v: unknown): v is string => typeof v === 'string';
const textOf = (v: unknown): string => (isText(v) ? v.trim() : '');
/** A list of texts, a single text as a list of one; undefined when it is something else. */
const textList = (v: unknown): string[] | undefined => {
  if (v === undefined || v === null) return [];
  if (isText(v)) return [v.trim()].filter(Boolean);
  if (Array.isArray(v) && v.every((x) => isText(x) || typeof x === 'number'))
    return v.map((x) => String(x).trim()).filter(Boolean);
  return undefined;
};
/** YYYY-MM-DD (Sigma 2.x), also the older YYYY/MM/DD; null when absent or not a date. */
const dateOf = (v: unknown): string | null => {
  const m = /^(\d{4})[-/](\d{2})[-/](\d{2})$/.exec(textOf(v));
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
};
export const formatBytes = (n: number) =>
  n >= 1_000_000 ? `${Math.round(n / 100_000) / 10} MB` : `${Math.round(n / 100) / 10} KB`;

/** Decodes a file's bytes (UTF-8, a BOM allowed) within the per-file limit. */
export function decodeRuleFile(bytes: Uint8Array): { text: string } | { error: Localized } {
  if (bytes.length > SIGMA_IMPORT_LIMITS.fileBytes)
    return { error: msg('sigmaFileTooLarge', formatBytes(SIGMA_IMPORT_LIMITS.fileBytes)) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { error: msg('sigmaNotUtf8') };
  }
}

/** The `attack.*` tags as tactics and technique ids; the tags no namespace knows. */
function readTags(tags: string[]) {
  const tactics: string[] = [];
  const techniques: string[] = [];
  const unknown: string[] = [];
  for (const tag of tags) {
    const lower = tag.toLowerCase();
    const dot = lower.indexOf('.');
    const namespace = dot > 0 ? lower.slice(0, dot) : '';
    const value = dot > 0 ? lower.slice(dot + 1) : '';
    if (namespace === 'attack') {
      if (TACTICS.has(value)) tactics.push(value.replace(/_/g, '-'));
      else if (ATTACK_TECHNIQUE.test(value)) techniques.push(value.toUpperCase());
      else if (!ATTACK_OTHER.test(value)) unknown.push(tag);
    } else if (!OTHER_NAMESPACES.has(namespace) || !value) unknown.push(tag);
  }
  return { tactics: [...new Set(tactics)], techniques: [...new Set(techniques)], unknown };
}

/**
 * Tactic → techniques. A technique goes under the rule's tactics that ATT&CK gives it; under all
 * the rule's tactics when it names none of them or ATT&CK is not at hand; under its ATT&CK
 * tactics when the rule tags no tactic.
 */
function coverage(tactics: string[], techniques: string[], tacticsOf?: TechniqueTactics) {
  const cov: Record<string, string[]> = {};
  const add = (tactic: string, id: string) => {
    const list = (cov[tactic] ??= []);
    if (!list.includes(id)) list.push(id);
  };
  for (const tactic of tactics) cov[tactic] = [];
  for (const id of techniques) {
    const known = tacticsOf?.(id) ?? [];
    const shared = known.filter((t) => tactics.includes(t));
    for (const tactic of shared.length ? shared : tactics.length ? tactics : known) add(tactic, id);
  }
  const all = new Set<string>();
  for (const id of techniques) {
    all.add(id);
    if (id.includes('.')) all.add(id.split('.')[0]!);
  }
  return { mitreCov: cov, tactics: Object.keys(cov), techniques: [...all].sort() };
}

/**
 * A reference as a link, titled by its host; null unless it is an http(s) URL as the analyst API
 * takes them: `javascript:`, `data:` and the like, and plain texts, are dropped (the rest of the
 * rule is imported).
 */
const linkOf = (url: string): RuleLink | null =>
  isRuleLinkUrl(url) ? { title: new URL(url).hostname.replace(/^www\./, ''), url } : null;

/** One Sigma rule file's text → the rule, a skip or an error (parsed on the calling thread). */
export function parseSigmaRule(text: string, tacticsOf?: TechniqueTactics): SigmaParse {
  return sigmaRuleOf(readSigmaYaml(text), text, tacticsOf);
}

/** A file's parsed YAML (readSigmaYaml, maybe in a worker) and its text → the rule, a skip or an error. */
export function sigmaRuleOf(read: YamlRead, text: string, tacticsOf?: TechniqueTactics): SigmaParse {
  if (!read.ok)
    return error(read.invalid === null ? msg('sigmaNotMapping') : msg('sigmaInvalidYaml', read.invalid));
  const { doc } = read;
  const ruleId = textOf(doc.id);
  if (!ruleId) return error(msg('sigmaMissingField', 'id'));
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(ruleId)) return error(msg('sigmaInvalidField', 'id'));
  const skip = (reason: SigmaSkipReason, message: Localized): SigmaParse => ({
    kind: 'skip',
    ruleId,
    reason,
    message,
  });
  if (read.documents > 1) return skip('unsupported', msg('sigmaSkipCollection'));
  const title = textOf(doc.title);
  if (!title) return error(msg('sigmaMissingField', 'title'));
  if (title.length > 256) return error(msg('sigmaInvalidField', 'title'));
  if (doc.correlation !== undefined || doc.filter !== undefined)
    return skip('not_a_rule', msg('sigmaSkipCorrelation'));
  const status = textOf(doc.status).toLowerCase() || 'experimental';
  if (status === 'deprecated') return skip('deprecated', msg('sigmaSkipDeprecated'));
  if (status === 'unsupported') return skip('unsupported', msg('sigmaSkipUnsupported'));
  const confidence = CONFIDENCE[status];
  if (!confidence) return error(msg('sigmaInvalidField', 'status'));
  if (doc.description !== undefined && !isText(doc.description))
    return error(msg('sigmaInvalidField', 'description'));
  const logsource = doc.logsource;
  if (!logsource || typeof logsource !== 'object' || Array.isArray(logsource))
    return error(msg('sigmaMissingField', 'logsource'));
  if (!doc.detection || typeof doc.detection !== 'object')
    return error(msg('sigmaMissingField', 'detection'));
  const tags = textList(doc.tags);
  if (!tags) return error(msg('sigmaInvalidField', 'tags'));
  const { tactics, techniques, unknown } = readTags(tags);
  if (unknown.length) return error(msg('sigmaUnknownTags', unknown.join(', ')));
  const references = textList(doc.references);
  if (!references) return error(msg('sigmaInvalidField', 'references'));
  const falsePositives = textList(doc.falsepositives);
  if (!falsePositives) return error(msg('sigmaInvalidField', 'falsepositives'));
  const levelText = textOf(doc.level).toLowerCase();
  if (!levelText) return skip('unsupported', msg('sigmaSkipNoLevel'));
  const level = LEVELS[levelText];
  if (!level) return error(msg('sigmaInvalidField', 'level'));
  if (level === 'informational') return skip('informational', msg('sigmaSkipInformational'));
  const source = logsource as Record<string, unknown>;
  const product = textOf(source.product);
  const service = textOf(source.service);
  const category = textOf(source.category);
  const platform = PLATFORMS[product.toLowerCase()];
  return {
    kind: 'rule',
    rule: {
      ruleId,
      title,
      description: textOf(doc.description),
      severity: level,
      confidence,
      status,
      ...coverage(tactics, techniques, tacticsOf),
      platforms: platform ? [platform] : [],
      links: references.map(linkOf).filter((l) => l !== null),
      sensorTuples:
        product || service || category
          ? [{ sensor: product, sensor_module: service, sensor_type: category }]
          : [],
      author: textOf(doc.author),
      authoredOn: dateOf(doc.date),
      modifiedOn: dateOf(doc.modified),
      falsePositives,
      yaml: text,
    },
  };
}
