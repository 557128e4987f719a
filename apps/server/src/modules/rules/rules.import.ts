import type { Language, SigmaImportOptions, SigmaImportResult, SigmaSkipReason } from '@soc/contracts';
import { RULE_SERVICE_LEVELS } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { Localized } from '../../lib/messages.ts';
import { msg } from '../../lib/messages.ts';
import type { RuleInsert, RuleRow } from './rules.repository.ts';
import { createRuleImportRepository } from './rules.repository.ts';
import { rulesAttack } from './rules.attack.ts';
import type { SigmaRule, TechniqueTactics } from './rules.sigma.ts';
import { decodeRuleFile, sigmaRuleOf } from './rules.sigma.ts';
import type { RuleFiles } from './rules.sigma-files.ts';
import { SIGMA_MAX_NESTING, nestingDepth } from './rules.sigma-yaml.ts';
import type { YamlReadLimits } from './rules.yaml-reader.ts';
import { YamlReadAborted, readYamlOffThread } from './rules.yaml-reader.ts';

/** The category imported Sigma rules carry (the catalogue's filter finds them by it). */
export const SIGMA_CATEGORY = 'Sigma';

export interface SigmaImportReport {
  dryRun: boolean;
  files: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: { file: string; ruleId: string | null; reason: SigmaSkipReason; message: Localized }[];
  errors: { file: string; message: Localized }[];
  /** Rules accepted (created, updated or unchanged) by severity and by tactic. */
  byLevel: Record<string, number>;
  byTactic: Record<string, number>;
  seconds: number;
}

export interface SigmaImportDeps {
  db: Db;
  /** ATT&CK tactics of a technique, to put each technique under its own tactics. */
  tacticsOf?: TechniqueTactics;
  /** Bounds of the YAML parse (rules.yaml-reader.ts); the defaults unless a test sets them. */
  yamlLimits?: YamlReadLimits;
}

/**
 * The whole import refused, nothing written: a file nested deeper than any Sigma rule, or one whose
 * parse ran out of time or memory (issue 37 item 2). The admin API answers it with 422.
 */
export class SigmaImportRefused extends Error {
  constructor(readonly detail: Localized) {
    super(detail.en);
  }
}

/** The files' texts parsed in a worker; a hostile file refuses the import. */
async function readAll(texts: { name: string; text: string }[], limits?: YamlReadLimits) {
  for (const { name, text } of texts)
    if (nestingDepth(text) > SIGMA_MAX_NESTING)
      throw new SigmaImportRefused(msg('sigmaTooDeep', name, SIGMA_MAX_NESTING));
  try {
    return await readYamlOffThread(texts, limits);
  } catch (err) {
    if (!(err instanceof YamlReadAborted)) throw err;
    throw new SigmaImportRefused(
      err.reason === 'time'
        ? msg('sigmaParseTooSlow', err.file, Math.round(err.ms / 100) / 10)
        : msg('sigmaParseTooBig', err.file),
    );
  }
}

/** The ATT&CK tactics of techniques from the configured ATT&CK data; undefined without it. */
export async function techniqueTacticsOf(config: Config, db: Db): Promise<TechniqueTactics | undefined> {
  const data = await rulesAttack(config, db)();
  return data.available ? (id) => data.byId.get(id)?.tactics : undefined;
}

/** JSON with object keys in order (jsonb does not keep the order they were written in). */
const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
const distinct = (values: string[]) => [...new Set(values.filter(Boolean))];

/** The catalogue fields an import sets (the name only when it creates; Russian texts never). */
function valuesOf(r: SigmaRule, o: SigmaImportOptions) {
  return {
    captionEn: r.title,
    descriptionEn: r.description,
    severity: r.severity,
    confidence: r.confidence,
    categories: [SIGMA_CATEGORY],
    availableForServices: o.services ?? [...RULE_SERVICE_LEVELS],
    activationMode: o.activation,
    mitreCov: r.mitreCov,
    tactics: r.tactics,
    techniques: r.techniques,
    platforms: r.platforms,
    links: r.links,
    sensorTuples: r.sensorTuples,
    sensors: distinct(r.sensorTuples.map((s) => s.sensor)),
    sensorModules: distinct(r.sensorTuples.map((s) => s.sensor_module)),
    sensorTypes: distinct(r.sensorTuples.map((s) => s.sensor_type)),
    source: 'sigma' as const,
    author: r.author,
    sourceStatus: r.status,
    authoredOn: r.authoredOn,
    modifiedOn: r.modifiedOn,
    falsePositives: r.falsePositives,
    sourceYaml: r.yaml,
  } satisfies Partial<RuleInsert>;
}
type ImportValues = ReturnType<typeof valuesOf>;

const sameAs = (row: RuleRow, values: ImportValues) =>
  (Object.keys(values) as (keyof ImportValues)[]).every((k) => stable(row[k]) === stable(values[k]));

const count = (into: Record<string, number>, key: string) => {
  into[key] = (into[key] ?? 0) + 1;
};

/**
 * Imports Sigma rules into the catalogue (issue 30). Every file is imported, skipped with a reason
 * or refused with an error; a refused file changes nothing. A rule is keyed by its Sigma `id`, so
 * a second import updates it (or leaves it unchanged) and never adds a duplicate. All writes go
 * in one transaction; `dry_run` reports the same figures without writing. The YAML is parsed in
 * a worker thread; a hostile file (too deep, or too slow or big to parse) throws
 * `SigmaImportRefused` and nothing is imported.
 */
export async function importSigmaRules(
  { db, tacticsOf, yamlLimits }: SigmaImportDeps,
  input: RuleFiles,
  options: SigmaImportOptions,
): Promise<SigmaImportReport> {
  const started = performance.now();
  const repo = createRuleImportRepository(db);
  const report: SigmaImportReport = {
    dryRun: options.dry_run,
    files: input.files.length + input.failures.length,
    created: 0,
    updated: 0,
    unchanged: 0,
    skipped: [],
    errors: input.failures.map((f) => ({ file: f.file, message: f.message })),
    byLevel: {},
    byTactic: {},
    seconds: 0,
  };

  const accepted: { file: string; rule: SigmaRule }[] = [];
  const fileOf = new Map<string, string>();
  const texts: { name: string; text: string }[] = [];
  for (const { name, bytes } of input.files) {
    const decoded = decodeRuleFile(bytes);
    if ('error' in decoded) report.errors.push({ file: name, message: decoded.error });
    else texts.push({ name, text: decoded.text });
  }
  const reads = await readAll(texts, yamlLimits);
  for (const [i, { name, text }] of texts.entries()) {
    const parsed = sigmaRuleOf(reads[i]!, text, tacticsOf);
    if (parsed.kind === 'error') report.errors.push({ file: name, message: parsed.message });
    else if (parsed.kind === 'skip')
      report.skipped.push({
        file: name,
        ruleId: parsed.ruleId,
        reason: parsed.reason,
        message: parsed.message,
      });
    else {
      const first = fileOf.get(parsed.rule.ruleId);
      if (first !== undefined) report.errors.push({ file: name, message: msg('sigmaDuplicateId', first) });
      else {
        fileOf.set(parsed.rule.ruleId, name);
        accepted.push({ file: name, rule: parsed.rule });
      }
    }
  }

  const existing = new Map(
    (await repo.byRuleIds(accepted.map((a) => a.rule.ruleId))).map((r) => [r.ruleId, r]),
  );
  const taken = await repo.takenNames(distinct(accepted.map((a) => a.rule.title)));
  const created: RuleInsert[] = [];
  const updated: { id: number; values: Partial<RuleInsert> }[] = [];
  for (const { file, rule } of accepted) {
    const row = existing.get(rule.ruleId);
    const values = valuesOf(rule, options);
    if (row && row.source !== 'sigma') {
      report.errors.push({ file, message: msg('sigmaIdTaken') });
      continue;
    }
    if (row) {
      if (sameAs(row, values)) report.unchanged++;
      else {
        updated.push({ id: row.id, values });
        report.updated++;
      }
    } else {
      // the detection name is unique: a second rule of the same title is told apart by its id
      const name = taken.has(rule.title) ? `${rule.title} (${rule.ruleId.slice(0, 8)})` : rule.title;
      taken.add(name);
      created.push({ ...values, ruleId: rule.ruleId, name, captionRu: '', descriptionRu: '' });
      report.created++;
    }
    count(report.byLevel, rule.severity);
    for (const tactic of rule.tactics) count(report.byTactic, tactic);
  }
  if (!options.dry_run && (created.length || updated.length)) await repo.write(created, updated);
  report.seconds = Math.round((performance.now() - started) / 100) / 10;
  return report;
}

/** The report as the API answers it, its messages in the caller's language. */
export function presentImport(r: SigmaImportReport, lang: Language): SigmaImportResult {
  return {
    dry_run: r.dryRun,
    files: r.files,
    created: r.created,
    updated: r.updated,
    unchanged: r.unchanged,
    skipped: r.skipped.map((s) => ({
      file: s.file,
      rule_id: s.ruleId,
      reason: s.reason,
      message: s.message.in(lang),
    })),
    errors: r.errors.map((e) => ({ file: e.file, message: e.message.in(lang) })),
    by_level: r.byLevel,
    by_tactic: r.byTactic,
    seconds: r.seconds,
  };
}

/** The report as `npm run admin -- rules import-sigma` prints it. */
export function describeImport(r: SigmaImportReport): string {
  const reasons: Record<string, number> = {};
  for (const s of r.skipped) count(reasons, s.reason);
  const table = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort(([ka, a], [kb, b]) => b - a || (ka < kb ? -1 : 1))
      .map(([k, n]) => `  ${k}\t${n}`)
      .join('\n') || '  (none)';
  return [
    `${r.dryRun ? 'Dry run (nothing written): ' : ''}${r.files} files in ${r.seconds} s: ` +
      `${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged, ` +
      `${r.skipped.length} skipped, ${r.errors.length} refused.`,
    'Skipped by reason:',
    table(reasons),
    ...r.skipped.map((s) => `  - ${s.file}: ${s.message.en}`),
    'Refused (nothing of these files was imported):',
    ...(r.errors.length ? r.errors.map((e) => `  - ${e.file}: ${e.message.en}`) : ['  (none)']),
    'Rules by level:',
    table(r.byLevel),
    'Rules by tactic:',
    table(r.byTactic),
  ].join('\n');
}
