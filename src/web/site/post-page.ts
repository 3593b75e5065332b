import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COMMENT_MAX_LENGTH, type Comment, CommentForm } from '../../areas/comments/schema.ts';
import type { CommentsService } from '../../areas/comments/service.ts';
import type { Post } from '../../areas/posts/schema.ts';
import type { PostsService } from '../../areas/posts/service.ts';
import { ApiError } from '../../http/errors.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { formProblems, typed } from '../shared/forms.ts';
import { csrfField, errorSummary, type FieldProblem } from '../shared/layout.ts';
import { markdownHtml } from '../shared/markdown.ts';
import { metaTags } from '../shared/meta.ts';
import type { PageRenderer, SchoolName } from '../shared/page-context.ts';
import { SlugParams } from '../shared/page-schemas.ts';
import type { SharedPages } from '../shared/shared-pages.ts';
import { day, paragraphs, summary } from '../shared/text.ts';
import { viewerPrincipal as principalOf } from '../shared/viewer.ts';
import { postPath } from './posts-view.ts';

type Params = { slug: string };

const minute = (timestamp: string) => timestamp.slice(0, 16).replace('T', ' ');

function commentList(comments: Comment[]): SafeHtml {
  if (!comments.length) return html`<p>No comments yet.</p>`;
  return html`<ol class="comments">${comments.map(
    (c) => html`<li id="comment-${c.id}"><p><strong>${c.author_name}</strong>
<time datetime="${c.created_at}">${minute(c.created_at)} UTC</time></p>${paragraphs(c.body)}</li>`,
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
  },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { page: true };

  async function renderPost(
    request: FastifyRequest,
    reply: FastifyReply,
    post: Post,
    form: { value?: string; message?: string; problems?: FieldProblem[] } = {},
    status = 200,
  ) {
    const comments = await deps.comments.recentOnPost(post.id);
    const date = post.published_at ? html`<time datetime="${post.published_at}">${day(post.published_at)}</time>` : '';
    const meta = html`<p class="meta">${date}${
      post.tags.length ? html` · ${post.tags.map((t, i) => html`${i ? ', ' : ''}${t}`)}` : ''
    }</p>`;
    const respond = request.viewer
      ? commentForm(post, reply.generateCsrf(), form.value ?? '', form.message, form.problems)
      : html`<p><a href="/signin?return_to=${encodeURIComponent(postPath(post.slug))}">Sign in</a> to comment.</p>`;
    const body = html`<article>${meta}${post.cover_url ? html`<img src="${post.cover_url}" alt="">` : ''}
${markdownHtml(post.body)}</article>
<section aria-labelledby="comments-heading"><h2 id="comments-heading">Comments</h2>
${commentList(comments)}
${respond}
</section>`;
    if (status !== 200) return deps.render(request, reply, post.title, body, status);
    const head = metaTags({
      title: post.title,
      description: summary(post.excerpt || post.body || post.title),
      url: `${deps.baseUrl}${postPath(post.slug)}`,
      siteName: (await deps.schoolName()) ?? 'Lyceum',
      type: 'article',
      image: post.cover_url,
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
