import { createRequire } from 'node:module';
import path from 'node:path';

// DejaVu ships with the npm dependencies, so Cyrillic renders on any machine without system fonts.
const fontDir = path.join(
  path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);
/** The faces of every PDF the server writes (incidents, reports, documents), by registered name. */
const FACES = {
  body: path.join(fontDir, 'DejaVuSans.ttf'),
  bold: path.join(fontDir, 'DejaVuSans-Bold.ttf'),
  italic: path.join(fontDir, 'DejaVuSans-Oblique.ttf'),
  'bold-italic': path.join(fontDir, 'DejaVuSans-BoldOblique.ttf'),
  mono: path.join(fontDir, 'DejaVuSansMono.ttf'),
  'mono-bold': path.join(fontDir, 'DejaVuSansMono-Bold.ttf'),
} as const;
export type PdfFace = keyof typeof FACES;

/** Registers the faces under their names; pdfkit embeds only the ones a document uses. */
export function registerPdfFonts(doc: PDFKit.PDFDocument): void {
  for (const [name, file] of Object.entries(FACES)) doc.registerFont(name, file);
}
