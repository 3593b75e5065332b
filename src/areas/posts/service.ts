// STUB: replaced by the area implementation.
import type { AreaDeps } from '../deps.ts';
import type { PostsStore } from './store.ts';

export function postsService(deps: AreaDeps & { store: PostsStore }) {
  return { deps, publishDue: async () => 0 };
}

export type PostsService = ReturnType<typeof postsService>;
