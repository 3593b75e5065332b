// STUB: replaced by the area implementation.

import type { CurriculumService } from '../curriculum/service.ts';
import type { AreaDeps } from '../deps.ts';
import type { PostsService } from '../posts/service.ts';
import type { CommentsStore } from './store.ts';

export function commentsService(
  deps: AreaDeps & { store: CommentsStore } & { posts: PostsService; curriculum: CurriculumService },
) {
  return { deps };
}

export type CommentsService = ReturnType<typeof commentsService>;
