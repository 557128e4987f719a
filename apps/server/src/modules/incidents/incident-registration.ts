import type { IncidentPriority } from '@soc/contracts';
import type { Db, Tx } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { slaDeadline } from '../../lib/sla.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { displayName } from '../users/index.ts';
import type { NewIncident } from './incident-writes.repository.ts';
import { createIncidentWritesRepository } from './incident-writes.repository.ts';
import { msg } from '../../lib/messages.ts';

export const doesNotExist = (id: number | string) => msg('objectDoesNotExist', id);

/** What every registration names: the portal's form (product §A3 create payload). */
export interface IncidentRegistration {
  system: number;
  issuetype: number;
  primary_category: number;
  secondary_category: number[];
  summary: string;
  description: string;
  priority: IncidentPriority;
  /** The service the analyst API may name; without it, the system's first service. */
  service?: number | undefined;
}

/** The incident as registered. */
export interface RegisteredIncident {
  id: string;
  key: number;
  systemId: number;
}

/** What a caller adds to a registration once the common checks have passed. */
export interface RegistrationExtras {
  /** Columns beyond the portal's form (the analyst API sets every field of product §A3). */
  fields?: Omit<Partial<NewIncident>, 'id' | 'key'>;
  /** Shown as the reporter instead of the caller's name, unless blank. */
  reporterName?: string | undefined;
  /** Written in the incident's transaction, after its row (asset snapshots, alerts). */
  write?: (tx: Tx, incident: RegisteredIncident) => Promise<void>;
  /** Added to the audit record's details. */
  auditDetails?: Record<string, unknown>;
}

/** A 400 naming the categories that do not belong to the issue type (none named: no check). */
export async function checkCategories(
  db: Db,
  typeId: number,
  primary: number | undefined,
  secondary: number[] | undefined,
): Promise<void> {
  const ids = [...(primary ? [primary] : []), ...(secondary ?? [])];
  if (!ids.length) return;
  const ok = await createIncidentWritesRepository(db).categoriesOfType(typeId, ids);
  const errors: Record<string, string[]> = {};
  if (primary && !ok.has(primary))
    errors.primary_category = ['The category does not belong to the issue type.'];
  const wrong = (secondary ?? []).filter((id) => !ok.has(id));
  if (wrong.length)
    errors.secondary_category = [`Categories ${wrong.join(', ')} do not belong to the issue type.`];
  if (Object.keys(errors).length) throw badRequest(errors);
}

/**
 * Registers an incident raised by the caller (product §A3, §A5 rules), for the portal and the
 * analyst API alike: the system must be one of the caller's, the categories the issue type's,
 * the SLA comes from the service; then `extend` (the API's own checks) may add fields and writes.
 * An incident raised by a customer waits for the SOC; one raised by the SOC waits for the customer.
 * The caller tells the notifiers: what it does after registration differs by path.
 */
export async function registerIncident(
  db: Db,
  input: IncidentRegistration,
  auth: AuthContext,
  ip: string,
  extend?: (systemId: number) => Promise<RegistrationExtras>,
): Promise<RegisteredIncident> {
  const reads = createIncidentWritesRepository(db);
  const systemId = await reads.systemInScope(input.system, systemScope(auth));
  if (systemId === undefined) throw badRequest({ system: [doesNotExist(input.system)] });
  if (!(await reads.issueTypeExists(input.issuetype)))
    throw badRequest({ issuetype: [doesNotExist(input.issuetype)] });
  await checkCategories(db, input.issuetype, input.primary_category, input.secondary_category);
  const service = await reads.serviceWithSla(systemId, input.priority, input.service);
  if (input.service && !service) throw badRequest({ service: [doesNotExist(input.service)] });
  const extras = (await extend?.(systemId)) ?? {};
  const me = await displayName(db, auth.userId);
  const now = new Date();
  const created = await db.transaction(async (tx) => {
    const row = await createIncidentWritesRepository(tx).insertIncident({
      systemId,
      serviceId: service?.id ?? null,
      issueTypeId: input.issuetype,
      categoryId: input.primary_category,
      secondaryCategoryIds: [
        ...new Set(input.secondary_category.filter((id) => id !== input.primary_category)),
      ],
      summary: input.summary,
      description: input.description,
      priority: input.priority,
      status: auth.role === 'customer' ? 'waiting_for_support' : 'waiting_for_customer',
      reporterId: auth.userId,
      reporterName: extras.reporterName || me.name,
      notifiedAt: now,
      sla: service?.hours ? slaDeadline(now, service.hours, service.calendar ?? true) : null,
      slaBreached: false,
      ...extras.fields,
      created: now,
      updated: now,
    });
    await extras.write?.(tx, row);
    return row;
  });
  await audit(db, {
    userId: auth.userId,
    action: 'incident.create',
    objectType: 'incident',
    objectId: created.key,
    ip,
    details: { system: systemId, priority: input.priority, ...extras.auditDetails },
  });
  return created;
}
