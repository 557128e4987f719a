import type { DerivedCheck } from '../../db/derived/check.ts';
import { checkDerived, rebuildDerived } from '../../db/derived/check.ts';
import { BRANDING_FIELDS } from './branding.ts';
import type { CommandGroup } from './command-context.ts';
import { CommandFailed, bool, json } from './command-context.ts';

/** `branding …`: show, set, reset. */
export const brandingCommands: CommandGroup = async ({ action, rest, o, admin, caller }) => {
  switch (action) {
    case 'show':
      return json(await admin.branding());
    case 'set':
      return json(
        await admin.updateBranding(
          {
            ...(o.name !== undefined ? { portal_name: o.name } : {}),
            ...(o['logo-url'] !== undefined ? { logo_url: o['logo-url'] } : {}),
            ...(o.color !== undefined ? { primary_color: o.color } : {}),
            ...(o['hide-oidc'] !== undefined
              ? { hide_oidc_buttons: bool(o['hide-oidc'], '--hide-oidc') }
              : {}),
            ...(o['hide-eps'] !== undefined ? { hide_eps_widget: bool(o['hide-eps'], '--hide-eps') } : {}),
            ...(o['alternate-category-filter'] !== undefined
              ? {
                  alternate_category_filter: bool(
                    o['alternate-category-filter'],
                    '--alternate-category-filter',
                  ),
                }
              : {}),
          },
          caller,
        ),
      );
    case 'reset': {
      const fields = rest.length ? rest : BRANDING_FIELDS;
      return json(await admin.updateBranding(Object.fromEntries(fields.map((f) => [f, null])), caller));
    }
  }
};

/** `derived check|rebuild`: the derived tables against a recount of their sources. */
export const derivedCommands: CommandGroup = async ({ action, db }) => {
  switch (action) {
    case 'check': {
      const report = describeCheck(await checkDerived(db));
      if (report.failed) throw new CommandFailed(report.text);
      return report.text;
    }
    case 'rebuild': {
      await rebuildDerived(db);
      const report = describeCheck(await checkDerived(db));
      if (report.failed) throw new CommandFailed(`Rebuilt, yet:\n${report.text}`);
      return `Rebuilt. ${report.text}`;
    }
  }
};

/** What `derived check` prints: the rows that differ, as a table, or that none does. */
function describeCheck(check: DerivedCheck): { failed: boolean; text: string } {
  const tables = Object.keys(check.counts);
  const differing = Object.entries(check.counts).filter(([, n]) => n > 0);
  if (!differing.length)
    return {
      failed: false,
      text: `${tables.length} derived tables agree with their recount (${tables.join(', ')}).`,
    };
  const rows = check.differences.map((d) => [d.table, d.key, d.stored ?? '—', d.recounted ?? '—'].join('\t'));
  const listed = check.differences.length;
  const total = differing.reduce((sum, [, n]) => sum + n, 0);
  return {
    failed: true,
    text: [
      ['table', 'key', 'stored', 'recounted'].join('\t'),
      ...rows,
      `${total} rows differ (${differing.map(([t, n]) => `${t}: ${n}`).join(', ')})${listed < total ? `; ${listed} listed` : ''}.`,
    ].join('\n'),
  };
}
