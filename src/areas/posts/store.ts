// STUB: replaced by the area implementation.
export function postsStore() {
  return {};
}

export type PostsStore = ReturnType<typeof postsStore>;
