// STUB: replaced by the area implementation.
export function appearanceStore() {
  return {};
}

export type AppearanceStore = ReturnType<typeof appearanceStore>;
