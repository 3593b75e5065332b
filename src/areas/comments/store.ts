// STUB: replaced by the area implementation.
export function commentsStore() {
  return {};
}

export type CommentsStore = ReturnType<typeof commentsStore>;
