// STUB: replaced by the area implementation.
export function lecturersStore() {
  return {};
}

export type LecturersStore = ReturnType<typeof lecturersStore>;
