import PDFDocument from 'pdfkit';
import type { Language } from '@soc/contracts';
import { INCIDENT_PRIORITY_TITLES, INCIDENT_STATUS_TITLES } from '@soc/contracts';
import { dateLocale } from '../../lib/messages.ts';
import { registerPdfFonts } from '../../lib/pdf-fonts.ts';
import type { ReportIncidentRow, ReportSummary } from './report-data.repository.ts';

const L = {
  ru: {
    report: 'Отчёт',
    generated: 'Сформирован',
    period: 'Период',
    systems: 'Системы',
    totals: 'Итоги',
    total: 'Инцидентов за период',
    previous: 'За предыдущий период',
    change: 'Изменение',
    byPriority: 'Инциденты по приоритету',
    byStatus: 'Инциденты по статусу',
    byCategory: 'Инциденты по категории',
    sla: 'Соблюдение SLA',
    slaMet: 'Соблюдён',
    slaBreached: 'Нарушен',
    slaPending: 'Не оповещены',
    compliance: 'Доля соблюдения',
    meanConfirm: 'Среднее время до подтверждения',
    meanClose: 'Среднее время до закрытия',
    hours: 'ч',
    topDomains: 'Частые домены',
    topIps: 'Частые IP-адреса',
    techniques: 'Техники MITRE ATT&CK',
    eps: 'EPS по договору',
    epsAverage: 'Средний',
    epsMax: 'Максимум',
    epsContract: 'По договору',
    epsExcess: 'Часов с превышением',
    incidents: 'Список инцидентов',
    key: 'Ключ',
    created: 'Создан',
    priority: 'Приоритет',
    status: 'Статус',
    system: 'Система',
    summary: 'Название',
    none: 'нет данных',
    more: (shown: number, total: number) => `Показаны первые ${shown} из ${total} инцидентов.`,
    timeZone: 'Часовой пояс',
  },
  en: {
    report: 'Report',
    generated: 'Generated',
    period: 'Period',
    systems: 'Systems',
    totals: 'Totals',
    total: 'Incidents in the period',
    previous: 'In the previous period',
    change: 'Change',
    byPriority: 'Incidents by priority',
    byStatus: 'Incidents by status',
    byCategory: 'Incidents by category',
    sla: 'SLA compliance',
    slaMet: 'Met',
    slaBreached: 'Breached',
    slaPending: 'Not notified',
    compliance: 'Compliance',
    meanConfirm: 'Mean time to confirm',
    meanClose: 'Mean time to close',
    hours: 'h',
    topDomains: 'Top domains',
    topIps: 'Top IP addresses',
    techniques: 'MITRE ATT&CK techniques',
    eps: 'EPS against the contract',
    epsAverage: 'Average',
    epsMax: 'Maximum',
    epsContract: 'Contracted',
    epsExcess: 'Hours over contract',
    incidents: 'Incidents',
    key: 'Key',
    created: 'Created',
    priority: 'Priority',
    status: 'Status',
    system: 'System',
    summary: 'Summary',
    none: 'no data',
    more: (shown: number, total: number) => `The first ${shown} of ${total} incidents are listed.`,
    timeZone: 'Time zone',
  },
} as const;

export interface ReportPdfInput {
  name: string;
  lang: Language;
  timeZone: string;
  start: Date;
  finish: Date;
  systems: string[];
  summary: ReportSummary;
  /** Batches of incidents, in order; the PDF lists them as they arrive. */
  incidents: AsyncIterable<ReportIncidentRow[]>;
  portalName: string;
}

const PRIORITY_COLORS: Record<string, string> = {
  critical: '#cf1322',
  high: '#fa541c',
  medium: '#faad14',
  low: '#52c41a',
};
const BAR_COLOR = '#1668dc';
const LEFT = 50;
const WIDTH = 495;

/**
 * The report as a PDF stream: header, totals with the comparison, bar charts drawn as vectors,
 * SLA, times, IOCs, MITRE techniques, EPS and the incident list. `done` settles when the whole
 * document has been written (the caller pipes the stream into storage meanwhile).
 */
export function reportPdf(input: ReportPdfInput): { doc: PDFKit.PDFDocument; done: Promise<void> } {
  const { lang, summary } = input;
  const t = L[lang];
  const doc = new PDFDocument({
    size: 'A4',
    margin: LEFT,
    info: { Title: `${t.report}: ${input.name}`, Author: input.portalName },
    lang,
    bufferPages: false,
  });
  registerPdfFonts(doc);
  const locale = dateLocale(lang);
  const dateTime = (d: Date) =>
    new Intl.DateTimeFormat(locale, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: input.timeZone,
    }).format(d);
  const date = (d: Date) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeZone: input.timeZone }).format(d);
  const num = (n: number, digits = 0) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(n);

  const ensure = (height: number) => {
    if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
  };
  const heading = (text: string) => {
    ensure(60);
    doc.x = LEFT;
    doc.moveDown(0.8).font('bold').fontSize(13).fillColor('#1f1f1f').text(text, LEFT).moveDown(0.3);
    doc.font('body').fontSize(10).fillColor('#262626');
  };
  const pair = (label: string, value: string) => {
    ensure(16);
    const y = doc.y;
    doc.font('body').fontSize(10).fillColor('#262626').text(label, LEFT, y, { width: 230 });
    doc.font('bold').text(value, LEFT + 240, y, { width: WIDTH - 240 });
    doc.x = LEFT;
    doc.y = Math.max(doc.y, y + 14);
  };
  /** A horizontal bar chart: label, bar proportional to the largest value, value. */
  const bars = (items: { label: string; value: number; color?: string }[]) => {
    if (!items.length) {
      doc.font('body').fontSize(10).text(t.none, LEFT);
      return;
    }
    const max = Math.max(...items.map((i) => i.value), 1);
    const labelWidth = 170;
    const barMax = WIDTH - labelWidth - 60;
    for (const item of items) {
      ensure(18);
      const y = doc.y;
      doc
        .font('body')
        .fontSize(9)
        .fillColor('#262626')
        .text(item.label, LEFT, y + 2, {
          width: labelWidth - 8,
          height: 12,
          ellipsis: true,
          lineBreak: false,
        });
      const w = Math.max(1, (item.value / max) * barMax);
      doc.rect(LEFT + labelWidth, y + 1, w, 12).fill(item.color ?? BAR_COLOR);
      doc.fillColor('#262626').text(num(item.value), LEFT + labelWidth + w + 6, y + 2, { lineBreak: false });
      doc.x = LEFT;
      doc.y = y + 17;
    }
  };

  const done = (async () => {
    doc
      .font('body')
      .fontSize(9)
      .fillColor('#8c8c8c')
      .text(
        `${input.portalName} · ${t.generated} ${dateTime(new Date())} · ${t.timeZone}: ${input.timeZone}`,
      );
    doc.moveDown(0.5).font('bold').fontSize(18).fillColor('#1f1f1f').text(`${t.report}: ${input.name}`);
    doc.font('body').fontSize(11).fillColor('#262626');
    doc.text(`${t.period}: ${dateTime(input.start)} — ${dateTime(input.finish)}`);
    doc.text(`${t.systems}: ${input.systems.join(', ') || '—'}`);

    heading(t.totals);
    const change = summary.total - summary.previousTotal;
    const changePct = summary.previousTotal
      ? ` (${change >= 0 ? '+' : ''}${num((change / summary.previousTotal) * 100, 1)}%)`
      : '';
    pair(t.total, num(summary.total));
    pair(t.previous, num(summary.previousTotal));
    pair(t.change, `${change >= 0 ? '+' : ''}${num(change)}${changePct}`);
    bars([
      { label: t.previous, value: summary.previousTotal, color: '#8c8c8c' },
      { label: t.total, value: summary.total },
    ]);

    heading(t.byPriority);
    bars(
      summary.byPriority.map((p) => ({
        label: INCIDENT_PRIORITY_TITLES[lang][p.key],
        value: p.count,
        color: PRIORITY_COLORS[p.key],
      })),
    );
    heading(t.byStatus);
    bars(summary.byStatus.map((s) => ({ label: INCIDENT_STATUS_TITLES[lang][s.key], value: s.count })));
    heading(t.byCategory);
    bars(summary.byCategory.map((c) => ({ label: c.title, value: c.count })));

    heading(t.sla);
    const { met, breached, pending } = summary.sla;
    pair(t.slaMet, num(met));
    pair(t.slaBreached, num(breached));
    pair(t.slaPending, num(pending));
    pair(t.compliance, met + breached ? `${num((met / (met + breached)) * 100, 1)}%` : '—');
    bars([
      { label: t.slaMet, value: met, color: '#52c41a' },
      { label: t.slaBreached, value: breached, color: '#cf1322' },
    ]);
    const hours = (h: number | null) => (h === null ? '—' : `${num(h, 1)} ${t.hours}`);
    pair(t.meanConfirm, hours(summary.meanHoursToConfirm));
    pair(t.meanClose, hours(summary.meanHoursToClose));

    heading(t.topDomains);
    bars(summary.topDomains.map((d) => ({ label: d.value, value: d.count })));
    heading(t.topIps);
    bars(summary.topIps.map((d) => ({ label: d.value, value: d.count })));
    heading(t.techniques);
    bars(summary.techniques.map((d) => ({ label: d.id, value: d.count })));

    heading(t.eps);
    if (!summary.eps.length) doc.text(t.none, LEFT);
    for (const e of summary.eps) {
      ensure(50);
      doc.font('bold').fontSize(10).text(e.system, LEFT);
      doc.font('body');
      pair(t.epsAverage, num(e.average, 2));
      pair(t.epsMax, num(e.maximum, 2));
      pair(t.epsContract, num(e.contracted));
      pair(t.epsExcess, num(e.excessHours));
    }

    doc.addPage();
    heading(t.incidents);
    const cols = [
      { title: t.key, width: 45 },
      { title: t.created, width: 65 },
      { title: t.system, width: 60 },
      { title: t.priority, width: 65 },
      { title: t.status, width: 95 },
      { title: t.summary, width: 165 },
    ];
    const row = (cells: string[], bold = false) => {
      ensure(14);
      const y = doc.y;
      let x = LEFT;
      doc
        .font(bold ? 'bold' : 'body')
        .fontSize(8)
        .fillColor('#262626');
      cells.forEach((cell, i) => {
        doc.text(cell, x, y, { width: cols[i]!.width - 4, height: 11, ellipsis: true, lineBreak: false });
        x += cols[i]!.width;
      });
      doc.x = LEFT;
      doc.y = y + 13;
    };
    row(
      cols.map((c) => c.title),
      true,
    );
    let listed = 0;
    for await (const batch of input.incidents) {
      for (const r of batch) {
        row([
          String(r.key),
          date(r.created),
          r.system,
          INCIDENT_PRIORITY_TITLES[lang][r.priority],
          INCIDENT_STATUS_TITLES[lang][r.status],
          r.summary,
        ]);
        listed += 1;
      }
    }
    if (!listed) doc.font('body').fontSize(10).text(t.none, LEFT);
    if (listed < summary.total)
      doc.moveDown(0.5).font('body').fontSize(9).text(t.more(listed, summary.total), LEFT);
    doc.end();
  })();
  done.catch(() => doc.end());
  return { doc, done };
}
