import PDFDocument from 'pdfkit';
import type { Comment, IncidentCard, Language } from '@soc/contracts';
import { INCIDENT_PRIORITY_TITLES, INCIDENT_STATUS_TITLES } from '@soc/contracts';
import { htmlToMarkdown } from '../../lib/markdown.ts';
import { dateLocale } from '../../lib/messages.ts';
import { registerPdfFonts } from '../../lib/pdf-fonts.ts';
import { writeMarkdown } from '../../lib/pdf-markdown.ts';

const L = {
  ru: {
    incident: 'Инцидент',
    generated: 'Сформировано',
    main: 'Основная информация',
    status: 'Статус',
    priority: 'Приоритет',
    system: 'Система',
    service: 'Сервис',
    issueType: 'Тип',
    category: 'Категория',
    created: 'Создан',
    updated: 'Обновлён',
    notified: 'Оповещение',
    sla: 'SLA',
    breached: 'нарушен',
    kept: 'соблюдён',
    assignee: 'Ответственный',
    reporter: 'Автор',
    resolution: 'Решение',
    affected: 'Затронутые узлы',
    gossopka: 'ГосСОПКА',
    rating: 'Оценка',
    description: 'Описание',
    recommendations: 'Рекомендации',
    iocs: 'Индикаторы компрометации',
    mitre: 'MITRE ATT&CK',
    rules: 'Правила обнаружения',
    comments: 'Комментарии',
    attachments: 'Вложения',
    none: 'нет',
  },
  en: {
    incident: 'Incident',
    generated: 'Generated',
    main: 'Main information',
    status: 'Status',
    priority: 'Priority',
    system: 'System',
    service: 'Service',
    issueType: 'Type',
    category: 'Category',
    created: 'Created',
    updated: 'Updated',
    notified: 'Notified',
    sla: 'SLA',
    breached: 'breached',
    kept: 'met',
    assignee: 'Assignee',
    reporter: 'Reporter',
    resolution: 'Resolution',
    affected: 'Affected hosts',
    gossopka: 'National centre',
    rating: 'Rating',
    description: 'Description',
    recommendations: 'Recommendations',
    iocs: 'Indicators of compromise',
    mitre: 'MITRE ATT&CK',
    rules: 'Detection rules',
    comments: 'Comments',
    attachments: 'Attachments',
    none: 'none',
  },
} as const;

const when = (ms: number | null, lang: Language) =>
  ms === null
    ? '—'
    : `${new Intl.DateTimeFormat(dateLocale(lang), {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'UTC',
      }).format(new Date(ms))} UTC`;

/** The incident as a PDF document (a stream): header, main info, texts, IOCs, MITRE, comments. */
export function incidentPdf(
  card: IncidentCard,
  comments: Comment[],
  lang: Language,
  portalName: string,
): PDFKit.PDFDocument {
  const t = L[lang];
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `${t.incident} ${card.key}: ${card.summary}`, Author: portalName, Subject: card.summary },
    lang,
  });
  registerPdfFonts(doc);

  const heading = (text: string) => {
    doc.moveDown(0.8).font('bold').fontSize(13).fillColor('#1f1f1f').text(text).moveDown(0.3);
    doc.font('body').fontSize(10).fillColor('#262626');
  };
  const paragraph = (text: string) =>
    doc
      .font('body')
      .fontSize(10)
      .text(text || '—', { align: 'left' });

  // header
  doc
    .font('body')
    .fontSize(9)
    .fillColor('#8c8c8c')
    .text(`${portalName} · ${t.generated} ${when(Date.now(), lang)}`);
  doc.moveDown(0.5).font('bold').fontSize(18).fillColor('#1f1f1f').text(`${t.incident} ${card.key}`);
  doc.font('body').fontSize(13).text(card.summary);

  heading(t.main);
  const rows: [string, string][] = [
    [t.status, INCIDENT_STATUS_TITLES[lang][card.status]],
    [t.priority, INCIDENT_PRIORITY_TITLES[lang][card.priority]],
    [t.system, `${card.system.is_id} ${card.system.full_name}`],
    [t.service, card.service?.name ?? '—'],
    [t.issueType, card.issuetype_ref.title],
    [
      t.category,
      [...card.category_ref, ...card.secondary_category_ref].map((c) => c.title).join(', ') || '—',
    ],
    [t.created, when(card.created, lang)],
    [t.updated, when(card.updated, lang)],
    [t.notified, when(card.notified, lang)],
    [t.sla, `${when(card.sla, lang)} (${card.sla_breached ? t.breached : t.kept})`],
    [t.assignee, card.customer_assignee?.full_name || card.customer_assignee?.username || '—'],
    [t.reporter, card.reporter_displayName || '—'],
    [t.resolution, [card.resolution, card.resolution_name_ref?.title].filter(Boolean).join(' — ') || '—'],
    [t.affected, card.affected_systems.join(', ') || '—'],
    [t.gossopka, card.gossopka_id ? `${card.gossopka_id} (${when(card.gossopka_send_time, lang)})` : '—'],
    [t.rating, card.customer_star_rating === null ? '—' : `${card.customer_star_rating}/5`],
  ];
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('bold').fontSize(10).text(label, 50, y, { width: 140 });
    const afterLabel = doc.y;
    doc.font('body').text(value, 200, y, { width: 345 });
    doc.x = 50;
    doc.y = Math.max(afterLabel, doc.y) + 2;
  }

  // the texts keep their Markdown structure (issue 28); no image is fetched for an incident
  const markdown = (text: string) =>
    text.trim() ? writeMarkdown(doc, text, { x: 50, width: 495 }) : paragraph('—');
  heading(t.description);
  markdown(card.description);
  heading(t.recommendations);
  markdown(card.recommendations);

  heading(t.iocs);
  if (card.observed_iocs.length) {
    for (const ioc of card.observed_iocs) {
      paragraph(`• ${ioc.ioc_type}: ${ioc.ioc}${ioc.category.length ? ` (${ioc.category.join(', ')})` : ''}`);
    }
  } else paragraph(t.none);

  heading(t.mitre);
  const tactics = Object.entries(card.mitre_cov);
  if (tactics.length) for (const [tactic, ids] of tactics) paragraph(`• ${tactic}: ${ids.join(', ')}`);
  else paragraph(t.none);
  heading(t.rules);
  paragraph(card.detection_rules.join(', ') || t.none);

  heading(t.comments);
  if (!comments.length) paragraph(t.none);
  for (const c of comments) {
    doc
      .font('bold')
      .fontSize(10)
      .text(`${c.author} · ${when(c.created, lang)}`);
    markdown(htmlToMarkdown(c.body));
    if (c.attachments.length) {
      doc
        .fontSize(9)
        .fillColor('#595959')
        .text(`${t.attachments}: ${c.attachments.map((a) => a.filename).join(', ')}`);
      doc.fillColor('#262626');
    }
    doc.moveDown(0.5);
  }
  doc.end();
  return doc;
}
