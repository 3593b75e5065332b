import { readFileSync } from 'node:fs';
import { slugify } from '../areas/slugs.ts';

/**
 * The demo school's own media, made by scripts/demo-media.ts and kept in src/demo/media/: what each file is and what
 * it says, so the script that makes them and the demo that uploads them agree.
 */
export const mediaDir = new URL('./media/', import.meta.url);

/** What only the made files can tell (their lengths in whole seconds), written by the script beside them. */
export type DemoMediaFacts = { video_s: number; audio_s: number };

export const DEMO_MEDIA = {
  /** The course whose lessons carry the video, the audio and the PDF. */
  course: 'Watercolour for Beginners',
  /** "Welcome and what you need", the first lesson of Watercolour for Beginners (a free preview). */
  video: {
    lesson: 'Welcome and what you need',
    file: 'welcome.mp4',
    captions: 'welcome.en.vtt',
    poster: 'welcome-poster.jpg',
    slides: [
      {
        title: 'Welcome',
        line: 'Loose, luminous paintings from your first brushstroke',
        say: 'Welcome to Watercolour for Beginners.',
      },
      {
        title: 'What you will learn',
        line: 'How water, pigment and paper work together',
        say: 'In this course you will learn how water, pigment and paper work together.',
      },
      {
        title: 'What you need',
        line: 'A round brush, six colours, cotton paper',
        say: 'You need very little to start: a round brush, six tubes of paint, and a pad of cotton paper.',
      },
      {
        title: 'Beside you',
        line: 'Two jars of clean water and a soft cloth',
        say: 'Keep two jars of clean water and a soft cloth beside you.',
      },
      {
        title: 'At your pace',
        line: 'Pause, try each step, then go on',
        say: 'Pause the video whenever you like, and try each step yourself before moving on.',
      },
      { title: 'Let’s begin', line: 'Next: flat and graded washes', say: 'Now, let us begin with your first wash.' },
    ],
  },
  /** An audio lesson added to the same section. */
  audio: {
    lesson: 'A word before you start',
    file: 'a-word-before-you-start.mp3',
    captions: 'a-word-before-you-start.en.vtt',
    sentences: [
      'Before you paint, a word about mistakes.',
      'Watercolour moves on its own, and that is its charm.',
      'A bloom or a hard edge is not a failure: it is the paint telling you how wet the paper was.',
      'Keep your first paintings small, and make many of them.',
    ],
  },
  /** "Materials checklist", the PDF lesson of the same section. */
  pdf: {
    lesson: 'Materials checklist',
    file: 'materials-checklist.pdf',
    title: 'Materials checklist',
    groups: [
      {
        heading: 'Paint and brushes',
        items: [
          'Six artist-quality tubes: a warm and a cool yellow, red and blue',
          'A round brush, size 8 or 10, that comes back to a point',
          'A flat brush, about 2 cm wide, for washes',
        ],
      },
      {
        heading: 'Paper',
        items: ['A pad of 300 g/m² cotton paper, A4 or larger', 'Masking tape to fix the paper to a board'],
      },
      {
        heading: 'Around you',
        items: ['Two jars of clean water', 'A soft cotton cloth or paper towel', 'A white plate or palette to mix on'],
      },
    ],
    tips: [
      'Tape all four edges of the paper to a board so it stays flat as it dries.',
      'Squeeze out a little of each colour before you start, so you never stop mid-wash.',
      'Work near a window: daylight shows colours as they are.',
    ],
  },
  coverFile: (courseTitle: string) => `cover-${slugify(courseTitle)}.jpg`,
  portraitFile: (name: string) => `portrait-${slugify(name.replace(/^Dr\. /, ''))}.jpg`,
} as const;

export const demoMediaFile = (name: string) => readFileSync(new URL(name, mediaDir));

export const demoMediaFacts = (): DemoMediaFacts =>
  JSON.parse(demoMediaFile('facts.json').toString()) as DemoMediaFacts;
