// STUB: replaced by the area implementation.
export function pagesStore() {
  return {};
}

export type PagesStore = ReturnType<typeof pagesStore>;
