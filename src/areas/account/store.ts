// STUB: replaced by the area implementation.
export function accountStore() {
  return {};
}

export type AccountStore = ReturnType<typeof accountStore>;
