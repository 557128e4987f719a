import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const textList = (name: string) =>
  text(name)
    .array()
    .notNull()
    .default(sql`'{}'::text[]`);

/**
 * Detection rules (product §B3 Rule). Provider-wide; which rules a customer sees follows the
 * service levels of their systems (`available_for_services`). The list columns behind filters are
 * arrays with GIN indexes; `mitre_cov` keeps the tactic → technique mapping as authored.
 */
export const rules = pgTable(
  'rules',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    ruleId: text('rule_id').notNull(),
    /** Detection name that incidents carry in `detection_rules`. */
    name: text('name').notNull(),
    captionRu: text('caption_ru').notNull(),
    captionEn: text('caption_en').notNull(),
    descriptionRu: text('description_ru').notNull().default(''),
    descriptionEn: text('description_en').notNull().default(''),
    severity: text('severity', { enum: ['Critical', 'High', 'Medium', 'Low'] }).notNull(),
    confidence: text('confidence', { enum: ['Critical', 'High', 'Medium', 'Low'] }).notNull(),
    categories: textList('categories'),
    availableForServices: textList('available_for_services'),
    activationMode: text('activation_mode', { enum: ['auto', 'manual'] })
      .notNull()
      .default('auto'),
    isRequested: boolean('is_requested').notNull().default(false),
    mitreCov: jsonb('mitre_cov').$type<Record<string, string[]>>().notNull().default({}),
    /** Tactic short names of `mitre_cov`. */
    tactics: textList('tactics'),
    /** Technique ids of `mitre_cov` plus the parents of its sub-techniques. */
    techniques: textList('techniques'),
    platforms: textList('platforms'),
    links: jsonb('links').$type<{ title: string; url: string }[]>().notNull().default([]),
    sensorTuples: jsonb('sensor_tuples')
      .$type<{ sensor: string; sensor_module: string; sensor_type: string }[]>()
      .notNull()
      .default([]),
    sensors: textList('sensors'),
    sensorModules: textList('sensor_modules'),
    sensorTypes: textList('sensor_types'),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    /** Where the rule came from: null for the provider's own, 'sigma' for an imported Sigma rule. */
    source: text('source', { enum: ['sigma'] }),
    /** The rule's authors as written (Sigma `author`; the licence asks to keep it). */
    author: text('author').notNull().default(''),
    /** Sigma `status` (stable, test, experimental) of an imported rule. */
    sourceStatus: text('source_status'),
    /** Sigma `date` and `modified`, YYYY-MM-DD. */
    authoredOn: text('authored_on'),
    modifiedOn: text('modified_on'),
    falsePositives: textList('false_positives'),
    /** The imported rule's YAML as it was read (shown read-only on the rule page). */
    sourceYaml: text('source_yaml'),
  },
  (t) => [
    uniqueIndex('rules_rule_id_uq').on(t.ruleId),
    uniqueIndex('rules_name_uq').on(t.name),
    index('rules_created_idx').on(t.created, t.id),
    index('rules_services_gin').using('gin', t.availableForServices),
    index('rules_categories_gin').using('gin', t.categories),
    index('rules_tactics_gin').using('gin', t.tactics),
    index('rules_techniques_gin').using('gin', t.techniques),
    index('rules_platforms_gin').using('gin', t.platforms),
    index('rules_sensors_gin').using('gin', t.sensors),
    index('rules_sensor_modules_gin').using('gin', t.sensorModules),
    index('rules_sensor_types_gin').using('gin', t.sensorTypes),
    index('rules_search_trgm').using(
      'gin',
      sql`(${t.ruleId} || ' ' || ${t.name} || ' ' || ${t.captionRu} || ' ' || ${t.captionEn}) gin_trgm_ops`,
    ),
  ],
);
