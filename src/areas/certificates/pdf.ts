import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import type { CertificateVerification } from './schema.ts';

const require = createRequire(import.meta.url);
// PDF's standard fonts only encode Latin-1; DejaVu also prints Latin Extended, Greek and Cyrillic names.
const FONTS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf'),
  sans: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
};

/** The certificate as a one-page landscape A4 PDF: what it certifies, and where anyone can check it. */
export function certificatePdf(input: {
  certificate: CertificateVerification;
  schoolName: string;
  verificationUrl: string;
  issuedOn: string;
}): Promise<Buffer> {
  const { certificate } = input;
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 60,
    info: {
      Title: `Certificate of completion: ${certificate.course_title}`,
      Author: input.schoolName,
      Subject: `${certificate.recipient_name} completed ${certificate.course_title}`,
    },
  });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);
  doc.registerFont('sans', FONTS.sans);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const { width, height } = doc.page;
  doc
    .lineWidth(3)
    .rect(30, 30, width - 60, height - 60)
    .stroke('#1f3a5f');
  doc
    .lineWidth(1)
    .rect(40, 40, width - 80, height - 80)
    .stroke('#1f3a5f');
  const centred = { align: 'center' as const, width: width - 120 };
  doc.fillColor('#1f3a5f').font('sans').fontSize(16).text(input.schoolName, 60, 90, centred);
  doc.moveDown(1.2).font('bold').fontSize(34).text('Certificate of Completion', centred);
  doc.moveDown(1).fillColor('#222222').font('regular').fontSize(16).text('This certifies that', centred);
  doc.moveDown(0.6).font('bold').fontSize(28).text(certificate.recipient_name, centred);
  doc.moveDown(0.6).font('regular').fontSize(16).text('has completed the course', centred);
  doc.moveDown(0.6).font('bold').fontSize(22).text(certificate.course_title, centred);
  doc.moveDown(1).font('regular').fontSize(14).text(`Issued on ${input.issuedOn}`, centred);
  if (certificate.revoked_at) {
    doc
      .moveDown(0.6)
      .fillColor('#a40000')
      .font('bold')
      .fontSize(14)
      .text('This certificate has been revoked.', centred);
  }
  doc
    .fillColor('#444444')
    .font('sans')
    .fontSize(10)
    .text(`Verify at ${input.verificationUrl}`, 60, height - 95, { ...centred, link: input.verificationUrl });
  doc.end();
  return done;
}
