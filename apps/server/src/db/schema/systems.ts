import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

const userRef = (name: string) =>
  integer(name).references((): AnyPgColumn => users.id, { onDelete: 'set null' });

/** Protected systems (tenants) of the provider's customers (product §B3). */
export const systems = pgTable(
  'systems',
  {
    id: serial('id').primaryKey(),
    /** The information-system code shown to customers, e.g. `IS-0001`. */
    isId: text('is_id').notNull(),
    fullName: text('full_name').notNull(),
    status: text('status', { enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    serviceManagerId: userRef('service_manager_id'),
    serviceManagerDoubleId: userRef('service_manager_double_id'),
    dedicatedAnalystId: userRef('dedicated_analyst_id'),
    dedicatedAnalystDoubleId: userRef('dedicated_analyst_double_id'),
    /**
     * Mail domains (lower case) an administrator allowed as report recipients of this system,
     * besides the addresses of its users.
     */
    mailDomains: text('mail_domains')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * The name under which the SOC's replies on this system's incidents are shown to its customers
     * (e.g. "Acme SOC"), instead of the analyst's own; null: as the analyst (issue 41).
     */
    socReplyName: text('soc_reply_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('systems_is_id_uq').on(t.isId), index('systems_full_name_idx').on(t.fullName)],
);

/** Contracts under which services are delivered to a system. */
export const contracts = pgTable(
  'contracts',
  {
    id: serial('id').primaryKey(),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    number: text('number').notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date'),
  },
  (t) => [index('contracts_system_idx').on(t.systemId)],
);

/** A monitoring service of a system (Vision, Horizon, Focus, Panorama…). */
export const services = pgTable(
  'services',
  {
    id: serial('id').primaryKey(),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    contractId: integer('contract_id').references(() => contracts.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    startDate: date('start_date').notNull(),
    /** Events per second the contract allows (EPS widget). */
    contractedEps: integer('contracted_eps').notNull().default(0),
  },
  (t) => [index('services_system_idx').on(t.systemId)],
);

/** Notification deadline per incident priority for a service (design §5, SLA). */
export const slaRows = pgTable(
  'sla_rows',
  {
    id: serial('id').primaryKey(),
    serviceId: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    /** Incident priority the row applies to. */
    category: text('category', { enum: ['critical', 'high', 'medium', 'low'] }).notNull(),
    hours: numeric('hours', { precision: 8, scale: 2, mode: 'number' }).notNull(),
    /** True: calendar hours (24/7); false: business hours (Mon–Fri 09:00–18:00). */
    calendar: boolean('calendar').notNull().default(true),
    icon: text('icon').notNull().default(''),
  },
  (t) => [uniqueIndex('sla_rows_service_category_uq').on(t.serviceId, t.category)],
);

/** Customer-side contacts of a system. */
export const contacts = pgTable(
  'contacts',
  {
    id: serial('id').primaryKey(),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    lastName: text('last_name').notNull(),
    firstName: text('first_name').notNull(),
    patronimic: text('patronimic').notNull().default(''),
    email: text('email').notNull().default(''),
    workPhone: text('work_phone').notNull().default(''),
    mobilePhone: text('mobile_phone').notNull().default(''),
    /** Language of the notification e-mails the contact receives. */
    locale: text('locale', { enum: ['ru', 'en'] })
      .notNull()
      .default('ru'),
    /** Receives incident notifications (creation, waiting for customer). */
    notify: boolean('notify').notNull().default(true),
  },
  (t) => [index('contacts_system_idx').on(t.systemId)],
);

/** Which systems (tenants) a user belongs to; customers see only these. */
export const userSystems = pgTable(
  'user_systems',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.systemId] }), index('user_systems_system_idx').on(t.systemId)],
);
