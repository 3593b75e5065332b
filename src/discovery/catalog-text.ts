/** A duration for people: "45 min", "3 h 20 min". */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${Math.max(minutes, seconds > 0 ? 1 : 0)} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** What a lesson is, for outlines: "video, 10 min, free preview". */
export function lessonFacts(lesson: { type: string; duration_s: number | null; is_preview: boolean }): string {
  return [
    lesson.type,
    lesson.duration_s ? formatDuration(lesson.duration_s) : '',
    lesson.is_preview ? 'free preview' : '',
  ]
    .filter(Boolean)
    .join(', ');
}
