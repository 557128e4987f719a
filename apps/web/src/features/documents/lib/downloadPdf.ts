import { startDownload } from '@/shared/downloads/downloads.ts';
import type { DocumentKindView } from './documentKinds.ts';

/**
 * Downloads a document as PDF (GET /soc/{kind}/{id}/download_pdf/) through the download popup;
 * the file is saved as `{title}.pdf` (product §B7) unless the server names it.
 */
export function downloadDocumentPdf(view: DocumentKindView, document: { id: number; title: string }): void {
  startDownload({
    path: `${view.apiPath}${document.id}/download_pdf/`,
    accept: 'application/pdf',
    filename: `${document.title || document.id}.pdf`,
  });
}
