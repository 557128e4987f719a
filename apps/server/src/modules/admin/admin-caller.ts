import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import type { Actor } from '../tokens/index.ts';
import { msg } from '../../lib/messages.ts';

/** An administrative call: who (null for the CLI) and from where (`cli` for the CLI). */
export interface AdminCaller extends Actor {
  ip: string;
}

export const doesNotExist = (id: number | string) => msg('objectDoesNotExist', id);

/** Writes the audit entry of an administrative change in the caller's name. */
export const adminRecorder =
  (db: Db) =>
  (caller: AdminCaller, action: string, objectType: string, objectId: string | number, details = {}) =>
    audit(db, { userId: caller.userId, action, objectType, objectId, ip: caller.ip, details });
