import Type, { type Static } from 'typebox';
import { Id, IdParams, ListQueryBase, Page, Timestamp } from '../../http/schemas.ts';

const Status = Type.Union([Type.Literal('valid'), Type.Literal('revoked')]);

export const Certificate = Type.Object(
  {
    id: Id('cer'),
    user_id: Id('usr'),
    course_id: Id('crs'),
    recipient_name: Type.String({ description: 'The student’s name when the certificate was issued' }),
    course_title: Type.String({ description: 'The course’s title when the certificate was issued' }),
    status: Status,
    issued_at: Timestamp,
    revoked_at: Type.Union([Timestamp, Type.Null()]),
    revoked_reason: Type.Union([Type.String(), Type.Null()]),
    verification_url: Type.String({ description: 'Public page that shows whether the certificate is valid' }),
    pdf_url: Type.String({ description: 'The certificate as a PDF (public, at the same unguessable address)' }),
    created_at: Timestamp,
  },
  { $id: 'Certificate' },
);
export type Certificate = Static<typeof Certificate>;

export const CertificateListQuery = Type.Object(
  {
    ...ListQueryBase,
    user_id: Type.Optional(Id('usr')),
    course_id: Type.Optional(Id('crs')),
    status: Type.Optional(Status),
  },
  { additionalProperties: false },
);
export type CertificateListQuery = Static<typeof CertificateListQuery>;

export const CertificatePage = Page(Certificate);

export const CertificateRevoke = Type.Object(
  {
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Shown on the verification page' })),
  },
  { additionalProperties: false },
);
export type CertificateRevoke = Static<typeof CertificateRevoke>;

export const CertificateIdParams = IdParams('cer');

/** What the public verification page shows: nothing beyond what the certificate itself prints. */
export type CertificateVerification = {
  code: string;
  recipient_name: string;
  course_title: string;
  issued_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
};
