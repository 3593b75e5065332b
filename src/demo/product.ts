import PDFDocument from 'pdfkit';
import type { DigitalProductCreate } from '../areas/digital-products/schema.ts';
import type { AssetCreate } from '../areas/storage/schema.ts';
import type { Principal } from '../http/principal.ts';
import type { DemoServices } from './services.ts';

/** What the demo sells besides courses and the membership: a printable guide, with its file. */
export const DEMO_PRODUCT = {
  title: 'Watercolour Colour-Mixing Chart',
  slug: 'colour-mixing-chart',
  description:
    'A printable **colour-mixing chart** for the palette used in *Watercolour for Beginners*: twelve pigments, ' +
    'their mixes and the greens and greys you get from them.\n\n- Print it on A4 watercolour paper\n' +
    '- Paint each square as you go\n- Keep it beside your palette',
  filename: 'Colour-mixing chart.pdf',
  /** Whole units of the school's currency. */
  price: 9,
} as const;

const PIGMENTS = ['Lemon yellow', 'Cadmium yellow', 'Quinacridone rose', 'Cadmium red', 'Ultramarine', 'Cerulean'];

/** The guide as a one-page A4 PDF (the standard fonts: its text is plain Latin). */
function chartPdf(schoolName: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: DEMO_PRODUCT.title, Author: schoolName } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.font('Helvetica-Bold').fontSize(22).text(DEMO_PRODUCT.title);
  doc
    .moveDown(0.5)
    .font('Helvetica')
    .fontSize(11)
    .text(`${schoolName} · Paint each square with the two pigments named.`);
  const cell = 72;
  const left = 50 + cell * 1.6;
  const top = 150;
  doc.fontSize(8);
  PIGMENTS.forEach((name, i) => {
    doc.text(name, left + i * cell, top - 24, { width: cell - 4 });
    doc.text(name, 50, top + i * cell + cell / 2 - 6, { width: cell * 1.5 });
    PIGMENTS.forEach((_, j) => {
      doc.rect(left + j * cell, top + i * cell, cell - 6, cell - 6).stroke();
    });
  });
  doc.end();
  return done;
}

/**
 * A digital product on sale, with its file uploaded as staff would: the asset announced, its bytes taken by the
 * storage service (which checks they are a PDF), then the product made and published, so /products has something.
 */
export async function createProduct(
  s: DemoServices,
  staff: Principal,
  school: { name: string; currency: string; minorUnits: number },
) {
  const bytes = await chartPdf(school.name);
  const asset = await s.storage.create(staff, {
    purpose: 'pdf',
    filename: DEMO_PRODUCT.filename,
    content_type: 'application/pdf',
    byte_size: bytes.length,
  } satisfies AssetCreate);
  await s.storage.upload(
    asset.id,
    (async function* () {
      yield bytes;
    })(),
    bytes.length,
  );
  const product = await s.digitalProducts.create({
    title: DEMO_PRODUCT.title,
    slug: DEMO_PRODUCT.slug,
    description: DEMO_PRODUCT.description,
    price: { amount: DEMO_PRODUCT.price * school.minorUnits, currency: school.currency },
    asset_ids: [asset.id],
  } satisfies DigitalProductCreate);
  await s.digitalProducts.publish(product.id);
}
