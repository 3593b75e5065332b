// STUB: replaced by the area implementation.
export function curriculumStore() {
  return {};
}

export type CurriculumStore = ReturnType<typeof curriculumStore>;
