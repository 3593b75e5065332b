import Type, { type Static } from 'typebox';
import { Id, ListQueryBase, Page, Timestamp } from '../../http/schemas.ts';

/**
 * What an upload is for, and the types its bytes may be (as sniffed from them). Images are public (covers, avatars,
 * logos); the others are lesson media, served only through signed URLs. SVG is not an image here: it can carry script.
 */
export const PURPOSES = {
  image: { types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'], public: true },
  video: { types: ['video/mp4', 'video/webm', 'video/quicktime', 'video/x-m4v'], public: false },
  audio: {
    types: ['audio/mpeg', 'audio/mp4', 'audio/x-m4a', 'audio/aac', 'audio/ogg', 'audio/wav', 'audio/flac'],
    public: false,
  },
  pdf: { types: ['application/pdf'], public: false },
  /** Any file: served as the type its bytes show (else application/octet-stream), always as an attachment. */
  download: { types: [] as string[], public: false },
  /** A lesson's captions: WebVTT, told by its signature ("WEBVTT" first), at most CAPTIONS_LIMIT_BYTES. */
  captions: { types: ['text/vtt'], public: false },
} as const;

/** Captions are text: an hour of speech is some 60 kB of WebVTT. */
export const CAPTIONS_LIMIT_BYTES = 1_000_000;

export type Purpose = keyof typeof PURPOSES;

const PurposeSchema = Type.Union(
  [
    Type.Literal('image'),
    Type.Literal('video'),
    Type.Literal('audio'),
    Type.Literal('pdf'),
    Type.Literal('download'),
    Type.Literal('captions'),
  ],
  { description: 'image: public; video, audio, pdf, download, captions (WebVTT): signed URLs only' },
);
const Status = Type.Union([Type.Literal('pending'), Type.Literal('ready'), Type.Literal('failed')], {
  description: 'pending until its bytes are uploaded to upload_url; then ready, or failed (see failure_reason)',
});
const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the bytes, lowercase hex' });

export const Asset = Type.Object(
  {
    id: Id('ast'),
    purpose: PurposeSchema,
    filename: Type.String(),
    content_type: Type.String({ description: 'As declared while pending; once ready, the type the bytes show' }),
    byte_size: Type.Integer(),
    sha256: Type.Union([Sha256, Type.Null()], { description: 'Computed from the uploaded bytes; null until ready' }),
    status: Status,
    failure_reason: Type.Union([Type.String(), Type.Null()]),
    url: Type.Union([Type.String(), Type.Null()], {
      description: 'Where a ready asset is served: a stable public URL for images, a short-lived signed URL otherwise',
    }),
    upload_url: Type.Union([Type.String(), Type.Null()], {
      description: 'While pending: PUT the raw bytes here (with the same bearer token)',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Asset' },
);
export type Asset = Static<typeof Asset>;

export const AssetCreate = Type.Object(
  {
    purpose: PurposeSchema,
    filename: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^(?!\\.\\.?$)[^/\\\\\\u0000-\\u001f\\u007f]+$',
      description: 'The file name (no folders), shown as the download name',
    }),
    content_type: Type.String({
      minLength: 3,
      maxLength: 255,
      pattern: '^[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*$',
      description: 'The media type of the file; it must be one the purpose allows, and what the bytes show',
    }),
    byte_size: Type.Integer({
      minimum: 1,
      description: "The file's exact size in bytes (at most the purpose's limit)",
    }),
    sha256: Type.Optional(Sha256),
  },
  { additionalProperties: false },
);
export type AssetCreate = Static<typeof AssetCreate>;

export const AssetListQuery = Type.Object(
  { ...ListQueryBase, purpose: Type.Optional(PurposeSchema), status: Type.Optional(Status) },
  { additionalProperties: false },
);
export type AssetListQuery = Static<typeof AssetListQuery>;

export const AssetPage = Page(Asset);

export const AssetIdParams = Type.Object({ id: Id('ast') }, { additionalProperties: false });

export const MediaParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
export const MediaQuery = Type.Object(
  { expires: Type.Optional(Type.String({ maxLength: 20 })), signature: Type.Optional(Type.String({ maxLength: 100 })) },
  { additionalProperties: false },
);
export type MediaQuery = Static<typeof MediaQuery>;
