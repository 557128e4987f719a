import type { DerivedSql } from './derived-sql.ts';

/**
 * The observed indicator values of an incident, lower-cased and distinct (as the dashboard's top
 * domains and IP addresses show them), for the incident list's ioc__in filter. The index
 * `incidents_iocs_gin` is built on it: a change of its result needs a migration that rebuilds
 * that index as well.
 */
export const incidentIocsSql: DerivedSql = {
  name: 'incident indicators',
  statements: [
    `CREATE OR REPLACE FUNCTION incident_ioc_values(iocs jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT lower(o->>'ioc')) FILTER (WHERE coalesce(o->>'ioc', '') <> ''), '{}')
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(iocs) = 'array' THEN iocs ELSE '[]'::jsonb END) AS o
$$`,
  ],
};
