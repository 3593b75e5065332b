import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { Areas } from '../../areas/index.ts';
import { ApiError, errors } from '../../http/errors.ts';
import { ANONYMOUS } from '../../http/principal.ts';
import type { SchoolName } from './page-context.ts';
import { croppedShareImage, drawnShareImage, SHARE_SIZE, type ShareSubject, shareVersion } from './share-image.ts';

/** What a page's Open Graph and Twitter tags say of its share image (meta.ts); no size for a picture elsewhere. */
export type ShareImage = { url: string; size?: { width: number; height: number }; alt: string };

type Shared = { id: string; title: string; cover_url: string | null };
const KINDS = { courses: 'course', posts: 'post' } as const;
type Kind = keyof typeof KINDS;

const FileParams = Type.Object(
  { file: Type.String({ pattern: '^(crs|pst)_[0-9a-z]{26}-[0-9a-f]{16}\\.(png|jpg)$' }) },
  { additionalProperties: false },
);

/**
 * The share images of courses and posts (1200 × 630, what a link to them shows in a chat or a feed): the uploaded
 * cover cropped, or the generated cover's design with the title and the school's name (a cover that is an address
 * elsewhere is shared as it is). Each is made the first time it
 * is asked for and kept in the blob store; its address names everything it is drawn from, so it may be kept for good,
 * and a new title, cover, name or colour is a new address.
 */
export function shareImages(deps: {
  areas: Pick<Areas, 'courses' | 'posts' | 'storage' | 'appearance'>;
  schoolName: SchoolName;
  baseUrl: string;
  /** The asset an address names when it is the public address of one of the school's uploads. */
  assetOf: (url: string) => string | undefined;
}) {
  const { areas } = deps;

  async function subjectOf(item: Shared): Promise<ShareSubject & { cover: string | undefined }> {
    const [appearance, schoolName] = await Promise.all([areas.appearance.get(), deps.schoolName()]);
    const cover = item.cover_url ? deps.assetOf(item.cover_url) : undefined;
    return {
      id: item.id,
      title: item.title,
      schoolName: schoolName ?? 'Lyceum',
      colours: { primary: appearance.colors.primary, accent: appearance.colors.accent },
      headingFont: appearance.fonts.heading,
      // The asset's id stands for its bytes, which never change.
      coverSha256: cover,
      cover,
    };
  }

  const fileOf = (subject: Awaited<ReturnType<typeof subjectOf>>) =>
    `${subject.id}-${shareVersion(subject)}.${subject.cover ? 'jpg' : 'png'}`;

  async function image(kind: Kind, item: Shared): Promise<ShareImage> {
    // A cover elsewhere is the owner's choice of picture, and is not fetched from here to be cropped.
    if (item.cover_url && !deps.assetOf(item.cover_url)) return { url: item.cover_url, alt: item.title };
    const subject = await subjectOf(item);
    return {
      url: `${deps.baseUrl}/share/${kind}/${fileOf(subject)}`,
      size: SHARE_SIZE,
      alt: item.title,
    };
  }

  /** The course or post a share image is of, as anyone may see it; 404 for the rest. */
  async function subjectFor(kind: Kind, id: string): Promise<Shared> {
    try {
      return kind === 'courses'
        ? await areas.courses.get(ANONYMOUS, id)
        : await areas.posts.getPublished(ANONYMOUS, id);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') throw errors.notFound('image');
      throw error;
    }
  }

  function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    for (const kind of Object.keys(KINDS) as Kind[]) {
      app.get(
        `/share/${kind}/:file`,
        { config: { public: true }, schema: { params: FileParams } },
        async (request, reply) => {
          const id = request.params.file.split('-')[0] as string;
          const subject = await subjectOf(await subjectFor(kind, id));
          const file = fileOf(subject);
          const cover = subject.cover;
          const type = cover ? 'image/jpeg' : 'image/png';
          const made = await areas.storage.keepDerived(`share-${file}`, type, async () => {
            const original = cover ? await areas.storage.imageBytes(cover) : undefined;
            // A cover whose bytes cannot be read is drawn over, in the format its address promises.
            const cropped = original && (await croppedShareImage(original).catch(() => undefined));
            return cropped ?? drawnShareImage(subject, cover ? 'jpeg' : 'png');
          });
          // An address of an older version still answers, with today's picture, but is not kept for long.
          const current = file === request.params.file;
          return reply
            .type(type)
            .header('content-length', made.byteSize)
            .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
            .header('cross-origin-resource-policy', 'cross-origin')
            .send(made.body);
        },
      );
    }
  }

  return {
    course: (course: Shared) => image('courses', course),
    post: (post: Shared) => image('posts', post),
    register,
  };
}

export type ShareImages = ReturnType<typeof shareImages>;
