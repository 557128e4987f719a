-- The observed indicator values of an incident, lower-cased and distinct (as the dashboard's top
-- domains and IP addresses show them), for the incident list's ioc__in filter and its index.
CREATE FUNCTION incident_ioc_values(iocs jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT lower(o->>'ioc')) FILTER (WHERE coalesce(o->>'ioc', '') <> ''), '{}')
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(iocs) = 'array' THEN iocs ELSE '[]'::jsonb END) AS o
$$;
--> statement-breakpoint
CREATE INDEX "incidents_iocs_gin" ON "incidents" USING gin (incident_ioc_values("observed_iocs"));
