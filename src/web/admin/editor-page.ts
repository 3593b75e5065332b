import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../text/html.ts';
import type { OwnAsset } from '../shared/own-assets.ts';
import { type AdminDeps, adminPage } from './admin-context.ts';

/** What the dedicated editors (quiz, release, fonts, links, pictures) need: the admin, and their own stylesheet. */
export type EditorDeps = AdminDeps & { editorStyle: OwnAsset };

/** An admin page with the editors' stylesheet in its head. */
export function editorPage(deps: EditorDeps) {
  const page = adminPage(deps);
  const head = html`<link rel="stylesheet" href="${deps.editorStyle.href}">`;
  return (request: FastifyRequest, reply: FastifyReply, opts: Parameters<typeof page>[2]) =>
    page(request, reply, { ...opts, head: html`${head}${opts.head ?? ''}` });
}
