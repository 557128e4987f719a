import type { GossopkaStatus } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { NationalCentreClient } from '../../integrations/national-centre/national-centre.client.ts';
import {
  NationalCentreError,
  createNationalCentreClient,
} from '../../integrations/national-centre/national-centre.client.ts';
import type { NationalCentreSimulator } from '../../integrations/national-centre/national-centre.simulator.ts';
import { startNationalCentreSimulator } from '../../integrations/national-centre/national-centre.simulator.ts';
import type { JobRow, JobRunner } from '../../jobs/runner.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { htmlToText, renderMarkdown } from '../../lib/markdown.ts';
import type { AuthContext } from '../../core/auth.ts';
import { createGossopkaRepository } from './gossopka.repository.ts';
import { loadIncident } from './incident-access.ts';
import { gossopkaStatus } from './incident-card.presenter.ts';
import { msg } from '../../lib/messages.ts';

export const GOSSOPKA_JOB = 'incident.gossopka_send';
/** Attempts of one send; with the runner's back-off (5, 10, 20 s) they fit in the 5-minute window. */
export const GOSSOPKA_MAX_ATTEMPTS = 4;

/** Credentials of the embedded simulator (demo only; a real centre is configured by GOSSOPKA_*). */
const SIMULATOR_USER = 'soc-portal';
const SIMULATOR_PASSWORD = 'simulator';

export interface GossopkaDeps {
  db: Db;
  config: Config;
  jobs: Pick<JobRunner, 'enqueue'>;
  log?: { warn: (msg: string) => void };
}

/**
 * Sending incidents to the national incident-reporting centre (product §A4). A request marks the
 * incident as processing and queues a job; the job calls the connector with the incident id as
 * idempotency key, retries time-outs and 5xx answers, and records the centre's id or the error.
 */
export function createGossopkaService({ db, config, jobs, log }: GossopkaDeps) {
  let simulator: Promise<NationalCentreSimulator> | undefined;
  let client: Promise<NationalCentreClient> | undefined;
  const repo = createGossopkaRepository(db);

  function connector(): Promise<NationalCentreClient> {
    client ??= (async () => {
      const c = config.nationalCentre;
      if (c.url) return createNationalCentreClient({ ...c, url: c.url });
      // embedded default: a local simulator, so that the demo works without a real centre
      simulator ??= startNationalCentreSimulator({ username: SIMULATOR_USER, password: SIMULATOR_PASSWORD });
      const sim = await simulator;
      log?.warn(
        `GOSSOPKA_URL is not set: incidents are sent to the built-in national-centre simulator at ${sim.url}`,
      );
      return createNationalCentreClient({
        url: sim.url,
        username: SIMULATOR_USER,
        password: SIMULATOR_PASSWORD,
        timeoutMs: c.timeoutMs,
      });
    })();
    return client;
  }

  async function isIncidentType(issueTypeId: number): Promise<boolean> {
    return (await repo.issueTypeCode(issueTypeId)) === 'incident';
  }

  async function fail(incidentId: string, key: number, message: string): Promise<Record<string, unknown>> {
    await repo.markFailed(incidentId, message);
    await audit(db, {
      userId: null,
      action: 'incident.gossopka_failed',
      objectType: 'incident',
      objectId: key,
      ip: '',
      details: { error: message },
    });
    return { sent: false, error: message };
  }

  return {
    /** POST manually_send_to_gossopka/: starts a send unless one is running or it was sent. */
    async requestSend(
      key: number,
      auth: AuthContext,
      ip: string,
    ): Promise<{ status: GossopkaStatus; started: boolean }> {
      const row = await loadIncident(db, key, auth);
      const incidentType = await isIncidentType(row.issueTypeId);
      const current = gossopkaStatus(row, incidentType);
      if (current.gossopka_state === 'sent' || current.gossopka_state === 'processing') {
        return { status: current, started: false };
      }
      if (!current.show_gossopka_button) {
        throw badRequest({
          non_field_errors: [msg('gossopkaNotSendable')],
        });
      }
      const started = await repo.start(row.id, new Date());
      if (started) {
        await jobs.enqueue(GOSSOPKA_JOB, { incidentId: row.id }, { maxAttempts: GOSSOPKA_MAX_ATTEMPTS });
        await audit(db, {
          userId: auth.userId,
          action: 'incident.gossopka_send',
          objectType: 'incident',
          objectId: key,
          ip,
        });
      }
      const after = await loadIncident(db, key, auth);
      return { status: gossopkaStatus(after, incidentType), started };
    },

    /** Queues the automatic send at `at` (the job checks that the plan still holds then). */
    async plan(incidentId: string, at: Date): Promise<void> {
      await jobs.enqueue(
        GOSSOPKA_JOB,
        { incidentId, plannedFor: at.getTime() },
        { runAt: at, maxAttempts: GOSSOPKA_MAX_ATTEMPTS },
      );
    },

    /** Job handler: one attempt to register the incident at the centre. */
    async runSend(payload: Record<string, unknown>, job: JobRow): Promise<Record<string, unknown>> {
      const row = await repo.toSend(String(payload.incidentId));
      if (!row) return { skipped: 'incident gone' };
      const i = row.incident;
      if (i.gossopkaId) return { sent: true, id: i.gossopkaId, already: true };
      // a planned send whose plan was moved or dropped meanwhile does nothing
      if (payload.plannedFor !== undefined && i.gossopkaPlannedTime?.getTime() !== payload.plannedFor) {
        return { skipped: 'plan changed' };
      }
      // a planned send starts here: the page shows it as processing
      if (!i.gossopkaProcessingSince) {
        await repo.markProcessing(i.id);
      }
      try {
        const client = await connector();
        const { id } = await client.send(
          {
            external_id: i.id,
            key: i.key,
            summary: i.summary,
            description: htmlToText(renderMarkdown(i.description)),
            category: row.category ?? '',
            priority: i.priority,
            system: { is_id: row.isId, name: row.systemName },
            created: i.created.toISOString(),
            detected: i.activityDetectedAt?.toISOString() ?? null,
            affected_hosts: i.affectedSystems,
            iocs: i.observedIocs.map((x) => ({ ioc: x.ioc, ioc_type: x.ioc_type })),
            techniques: i.techniques,
          },
          i.id,
        );
        await repo.markSent(i.id, id);
        await audit(db, {
          userId: null,
          action: 'incident.gossopka_sent',
          objectType: 'incident',
          objectId: i.key,
          ip: '',
          details: { gossopka_id: id, attempt: job.attempts },
        });
        return { sent: true, id };
      } catch (err) {
        const e = err instanceof NationalCentreError ? err : new NationalCentreError('Sending failed.', true);
        if (e.retryable && job.attempts < job.maxAttempts) throw e; // the runner retries with back-off
        return fail(i.id, i.key, e.message);
      }
    },

    async close(): Promise<void> {
      if (simulator) await (await simulator).close();
    },
  };
}

export type GossopkaService = ReturnType<typeof createGossopkaService>;
