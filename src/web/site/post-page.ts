import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COMMENT_MAX_LENGTH, type Comment, CommentForm } from '../../areas/comments/schema.ts';
import type { CommentsService } from '../../areas/comments/service.ts';
import type { Post } from '../../areas/posts/schema.ts';
import type { PostsService } from '../../areas/posts/service.ts';
import { ApiError } from '../../http/errors.ts';
import type { SchoolDates } from '../../text/dates.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { formProblems, typed } from '../shared/forms.ts';
import { csrfField, errorSummary, type FieldProblem } from '../shared/layout.ts';
import { markdownHtml } from '../shared/markdown.ts';
import { metaTags } from '../shared/meta.ts';
import type { PageRenderer, SchoolName } from '../shared/page-context.ts';
import { SlugParams } from '../shared/page-schemas.ts';
import { picture } from '../shared/picture.ts';
import type { PictureSource } from '../shared/pictures.ts';
import type { ShareImages } from '../shared/share-images.ts';
import type { SharedPages } from '../shared/shared-pages.ts';
import { type SiteDeps, schoolFacts } from '../shared/site-deps.ts';
import { paragraphs, summary } from '../shared/text.ts';
import { viewerPrincipal as principalOf } from '../shared/viewer.ts';
import { postPath } from './posts-view.ts';

type Params = { slug: string };

/** A post's feature image spans its article: the text's measure on a wide page, the whole of a phone's. */
const ARTICLE_SIZES = '(min-width: 46rem) 44rem, 100vw';

function commentList(comments: Comment[], dates: SchoolDates): SafeHtml {
  if (!comments.length) return html`<p>No comments yet.</p>`;
  return html`<ol class="comments">${comments.map(
    (c) => html`<li id="comment-${c.id}"><p><strong>${c.author_name}</strong>
<time datetime="${c.created_at}">${dates.dayAndTime(c.created_at)}</time></p>${paragraphs(c.body)}</li>`,
  )}</ol>`;
}

function commentForm(post: Post, csrf: string, value: string, message?: string, problems: FieldProblem[] = []) {
  return html`${errorSummary(message, problems)}
<form method="post" action="${postPath(post.slug)}/comments">
${csrfField(csrf)}
<p><label for="f-comment">Comment</label>
<textarea id="f-comment" name="body" rows="5" required maxlength="${COMMENT_MAX_LENGTH}">${value}</textarea></p>
<p><button type="submit">Post comment</button></p>
</form>`;
}

/**
 * A published post's public page with its visible comments; signed-in visitors get a comment form (CSRF-protected).
 * Drafts and scheduled posts are 404 here, for staff too: this is the public site, the API is the editor's view.
 */
export function registerPostPages(
  fastify: FastifyInstance,
  deps: {
    posts: PostsService;
    comments: CommentsService;
    render: PageRenderer;
    pages: SharedPages;
    baseUrl: string;
    schoolName: SchoolName;
    school: SiteDeps['areas']['school'];
    pictures: PictureSource;
    share: ShareImages;
  },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { page: true };

  /** The share image of a post anyone may read; members' posts keep theirs to themselves. */
  async function shareTags(post: Post) {
    if (post.visibility !== 'public') return {};
    const image = await deps.share.post(post);
    return { image: image.url, imageAlt: image.alt, ...(image.size ? { imageSize: image.size } : {}) };
  }

  async function renderPost(
    request: FastifyRequest,
    reply: FastifyReply,
    post: Post,
    form: { value?: string; message?: string; problems?: FieldProblem[] } = {},
    status = 200,
  ) {
    const [comments, { dates }, pictures] = await Promise.all([
      deps.comments.recentOnPost(post.id),
      schoolFacts(deps.school),
      deps.pictures([post.cover_url]),
    ]);
    const date = post.published_at
      ? html`<time datetime="${post.published_at}">${dates.day(post.published_at)}</time>`
      : '';
    const meta = html`<p class="meta">${date}${
      post.tags.length ? html` · ${post.tags.map((t, i) => html`${i ? ', ' : ''}${t}`)}` : ''
    }</p>`;
    const respond = request.viewer
      ? commentForm(post, reply.generateCsrf(), form.value ?? '', form.message, form.problems)
      : html`<p><a href="/signin?return_to=${encodeURIComponent(postPath(post.slug))}">Sign in</a> to comment.</p>`;
    const cover = post.cover_url
      ? picture({
          src: post.cover_url,
          alt: '',
          sizes: ARTICLE_SIZES,
          facts: pictures.facts(post.cover_url),
          className: 'post-hero',
          priority: true,
        })
      : '';
    const body = html`<article>${meta}${cover}
${markdownHtml(post.body)}</article>
<section aria-labelledby="comments-heading"><h2 id="comments-heading">Comments</h2>
${commentList(comments, dates)}
${respond}
</section>`;
    if (status !== 200) return deps.render(request, reply, post.title, body, status);
    const head = metaTags({
      title: post.title,
      description: summary(post.excerpt || post.body || post.title),
      url: `${deps.baseUrl}${postPath(post.slug)}`,
      siteName: (await deps.schoolName()) ?? 'Lyceum',
      type: 'article',
      ...(await shareTags(post)),
    });
    return deps.pages.send(request, reply, post.title, body, { head });
  }

  const params = SlugParams;
  app.get('/posts/:slug', { config: { ...config, sharedPage: true }, schema: { params } }, async (request, reply) => {
    const post = await deps.posts.getPublished(principalOf(request.viewer), request.params.slug);
    return renderPost(request, reply, post);
  });

  const signedIn = async (request: Pick<FastifyRequest, 'viewer'> & { params: Params }, reply: FastifyReply) => {
    if (!request.viewer)
      return reply.redirect(`/signin?return_to=${encodeURIComponent(postPath(request.params.slug))}`, 303);
  };

  app.post(
    '/posts/:slug/comments',
    {
      config,
      schema: { params, body: CommentForm },
      attachValidation: true,
      preHandler: [signedIn, app.csrfProtection],
    },
    async (request, reply) => {
      const principal = principalOf(request.viewer);
      const post = await deps.posts.getPublished(principal, request.params.slug);
      const value = typed(request.body, 'body') ?? '';
      const refused = formProblems(request);
      if (refused) {
        const problems = refused.map((p) => (p.field === 'body' ? { ...p, field: 'Comment' } : p));
        return renderPost(request, reply, post, { value, problems }, 400);
      }
      try {
        const comment = await deps.comments.create(principal, {
          target_type: 'post',
          target_id: post.id,
          body: request.body.body,
        });
        deps.pages.forget();
        return reply.redirect(`${postPath(post.slug)}#comment-${comment.id}`, 303);
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'invalid_request') throw error;
        return renderPost(request, reply, post, { value, message: error.message }, 400);
      }
    },
  );
}
