/**
 * What the demo school contains: a small art, data, language and web school with four lecturers. Prices are in major
 * units of the school's currency (seed.ts scales them to minor units); null means free.
 */

/** Source text wrapped to fit the code: paragraphs are separated by blank lines; the lines of one are joined. */
function prose(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) =>
      paragraph
        .trim()
        .split(/\s*\n\s*/)
        .join(' '),
    )
    .join('\n\n');
}

export type DemoLessonType = 'text' | 'video' | 'audio' | 'pdf' | 'download' | 'embed' | 'quiz';
/** [title, type, minutes (video and audio), free preview] */
export type DemoLesson = readonly [string, DemoLessonType, number?, boolean?];
export type DemoSection = { title: string; lessons: readonly DemoLesson[]; dripDays?: number };
export type DemoCourse = {
  title: string;
  subtitle: string;
  description: string;
  price: number | null;
  /** Indexes into DEMO_LECTURERS. */
  lecturers: readonly number[];
  draft?: boolean;
  sections: readonly DemoSection[];
};

export const DEMO_SCHOOL = {
  name: 'Meridian Academy',
  description: prose(`
      Small online courses in drawing and painting, data, languages and the web, taught by people who practise what
      they teach.
    `),
  currency: 'EUR',
  timezone: 'Europe/Berlin',
  /** Reserved for documentation (RFC 2606), so no demo mail ever reaches anyone. */
  emailDomain: 'meridian-academy.example',
};

export const DEMO_PEOPLE = {
  owner: { name: 'Margaret Hale', local: 'owner' },
  staff: { name: 'Priya Raman', local: 'staff' },
  student: { name: 'Sam Carter', local: 'student' },
} as const;

export const DEMO_LECTURERS = [
  {
    name: 'Jonas Lindqvist',
    title: 'Illustrator and watercolour painter',
    bio: prose(`
      Jonas has illustrated children’s books and field guides for fifteen years. He teaches the habits that make
      drawing a daily pleasure rather than a test of talent.
    `),
  },
  {
    name: 'Dr. Amara Okafor',
    title: 'Statistician and data scientist',
    bio: prose(`
      Amara spent a decade analysing clinical trials before moving into teaching. She explains statistics with real
      data sets and as few formulas as possible.
    `),
  },
  {
    name: 'Sofia Marchetti',
    title: 'Language teacher (Italian and Spanish)',
    bio: prose(`
      Born in Bologna and raised between Italy and Argentina, Sofia has taught conversation classes for adults since
      2009.
    `),
  },
  {
    name: 'Priya Raman',
    title: 'Web developer and accessibility specialist',
    bio: prose(`
      Priya builds websites for public services and teaches the web platform from the ground up: semantic HTML first,
      then CSS, then JavaScript.
    `),
    /** The staff account is also this lecturer. */
    isStaff: true,
  },
] as const;

export const DEMO_COURSES: readonly DemoCourse[] = [
  {
    title: 'Watercolour for Beginners',
    subtitle: 'Loose, luminous paintings from your first brushstroke',
    description: prose(`
        Learn how water, pigment and paper work together. We start with washes and colour mixing, move on to simple
        landscapes, and finish with a small painting of your own choosing.
      `),
    price: 49,
    lecturers: [0],
    sections: [
      {
        title: 'Materials and first washes',
        lessons: [
          ['Welcome and what you need', 'video', 1, true],
          ['A word before you start', 'audio', 1, true],
          ['Choosing paper, brushes and paints', 'text', undefined, true],
          ['Flat and graded washes', 'video', 14],
          ['Materials checklist', 'pdf'],
        ],
      },
      {
        title: 'Colour mixing',
        lessons: [
          ['A limited palette of six colours', 'video', 12],
          ['Mixing greens that look alive', 'video', 10],
          ['Colour mixing chart template', 'download'],
        ],
      },
      {
        title: 'Your first landscape',
        lessons: [
          ['Skies in three steps', 'video', 16],
          ['Trees and distant hills', 'video', 18],
          ['Check your understanding', 'quiz'],
        ],
      },
    ],
  },
  {
    title: 'Sketching Every Day',
    subtitle: 'A free 14-day habit for anyone with a pencil',
    description: prose(`
        Fifteen minutes a day is enough. Each short lesson gives you one subject and one idea to try, from contour
        drawing to quick urban sketches.
      `),
    price: null,
    lecturers: [0],
    sections: [
      {
        title: 'Week one: seeing',
        lessons: [
          ['Why daily sketching works', 'text', undefined, true],
          ['Blind contour drawing', 'video', 8],
          ['Drawing what is in front of you', 'video', 9],
        ],
      },
      {
        title: 'Week two: speed',
        lessons: [
          ['Two-minute gesture drawings', 'video', 7],
          ['Sketching people in cafés', 'video', 11],
          ['Your sketchbook prompts', 'pdf'],
        ],
      },
    ],
  },
  {
    title: 'Botanical Illustration',
    subtitle: 'Accurate, beautiful plant portraits in pencil and watercolour',
    description: prose(`
        Botanical illustration combines careful observation with delicate technique. You will draw leaves, flowers and
        seed heads, and learn the layering that gives plants depth.
      `),
    price: 79,
    lecturers: [0],
    sections: [
      {
        title: 'Observation',
        lessons: [
          ['Looking like a botanist', 'video', 12, true],
          ['Measuring and proportion', 'video', 15],
        ],
      },
      {
        title: 'Pencil studies',
        lessons: [
          ['Leaf venation', 'video', 17],
          ['Tonal studies of a single flower', 'video', 20],
          ['Reference photo pack', 'download'],
        ],
      },
      {
        title: 'Painting in layers',
        dripDays: 7,
        lessons: [
          ['Glazing thin layers', 'video', 19],
          ['Highlights and the white of the paper', 'video', 14],
          ['Finishing a plate', 'video', 22],
          ['Framing and presenting your work', 'text'],
        ],
      },
    ],
  },
  {
    title: 'Statistics Without Tears',
    subtitle: 'The ideas behind averages, spread, uncertainty and tests',
    description: prose(`
        A gentle, honest introduction to statistics for people who need to read studies and reports. No proofs, lots
        of pictures, and plenty of real examples.
      `),
    price: 59,
    lecturers: [1],
    sections: [
      {
        title: 'Describing data',
        lessons: [
          ['What a statistic is', 'video', 9, true],
          ['Mean, median and when they disagree', 'video', 13],
          ['Spread and the standard deviation', 'video', 15],
        ],
      },
      {
        title: 'Uncertainty',
        lessons: [
          ['Samples and populations', 'video', 12],
          ['Confidence intervals, intuitively', 'video', 16],
          ['Reading error bars', 'text'],
          ['Quiz: uncertainty', 'quiz'],
        ],
      },
      {
        title: 'Testing ideas',
        lessons: [
          ['What a p-value is (and is not)', 'video', 18],
          ['Effect sizes matter more', 'audio', 24],
          ['Cheat sheet', 'pdf'],
        ],
      },
    ],
  },
  {
    title: 'Python for Data Analysis',
    subtitle: 'From spreadsheets to notebooks with pandas',
    description: prose(`
        Load, clean, reshape and summarise real data with Python and pandas. Every lesson comes with a notebook you
        can run yourself.
      `),
    price: 89,
    lecturers: [1, 3],
    sections: [
      {
        title: 'Getting set up',
        lessons: [
          ['Installing Python and Jupyter', 'video', 10, true],
          ['Your first notebook', 'embed'],
        ],
      },
      {
        title: 'Working with tables',
        lessons: [
          ['DataFrames and Series', 'video', 17],
          ['Selecting and filtering rows', 'video', 15],
          ['Cleaning messy data', 'video', 21],
          ['Exercise notebooks', 'download'],
        ],
      },
      {
        title: 'Summaries and groups',
        lessons: [
          ['group by, step by step', 'video', 19],
          ['Joining tables', 'video', 16],
          ['Pivot tables in pandas', 'text'],
        ],
      },
      {
        title: 'A small project',
        lessons: [
          ['Analysing a city’s bike-share data', 'video', 28],
          ['Project checklist', 'pdf'],
          ['Final quiz', 'quiz'],
        ],
      },
    ],
  },
  {
    title: 'Data Visualisation that Tells a Story',
    subtitle: 'Charts that people understand at a glance',
    description: prose(`
        Choose the right chart, remove the clutter and guide the reader’s eye. We redesign real charts from news and
        business reports.
      `),
    price: 69,
    lecturers: [1],
    sections: [
      {
        title: 'Principles',
        lessons: [
          ['What makes a chart clear', 'video', 11, true],
          ['Choosing a chart type', 'text'],
        ],
      },
      {
        title: 'Makeovers',
        lessons: [
          ['From pie chart to bar chart', 'video', 13],
          ['Line charts with a message', 'video', 14],
          ['Colour with a purpose', 'video', 12],
          ['Before-and-after gallery', 'pdf'],
        ],
      },
    ],
  },
  {
    title: 'Conversational Italian A1',
    subtitle: 'Speak from the first lesson',
    description: prose(`
        Introduce yourself, order in a café, ask for directions and talk about your day. Short dialogues, audio you
        can repeat along with, and no grammar tables until you need them.
      `),
    price: 39,
    lecturers: [2],
    sections: [
      {
        title: 'Ciao! First words',
        lessons: [
          ['Greetings and introductions', 'video', 8, true],
          ['Pronunciation in ten minutes', 'audio', 10, true],
          ['Numbers from 0 to 100', 'audio', 7],
        ],
      },
      {
        title: 'Al bar',
        lessons: [
          ['Ordering coffee like a local', 'video', 9],
          ['Dialogue practice', 'audio', 12],
          ['Vocabulary list', 'pdf'],
        ],
      },
      {
        title: 'In città',
        lessons: [
          ['Asking the way', 'video', 10],
          ['Shops and opening hours', 'audio', 9],
          ['Quiz: in città', 'quiz'],
        ],
      },
    ],
  },
  {
    title: 'Spanish for Travellers',
    subtitle: 'A free survival kit for your next trip',
    description: prose(`
        The phrases that matter most when you travel in Spain and Latin America: greetings, transport, food, and what
        to say when things go wrong.
      `),
    price: null,
    lecturers: [2],
    sections: [
      {
        title: 'Essentials',
        lessons: [
          ['Hola, gracias, perdón', 'audio', 6, true],
          ['At the airport and the station', 'audio', 9],
        ],
      },
      {
        title: 'Eating out',
        lessons: [
          ['Reading a menu', 'text'],
          ['Ordering and paying', 'audio', 8],
          ['Phrase book', 'pdf'],
        ],
      },
    ],
  },
  {
    title: 'HTML & CSS from Scratch',
    subtitle: 'Build and publish your first accessible web page',
    description: prose(`
        Write a personal web page by hand: meaningful HTML, a stylesheet that adapts to phones, and the basics of
        accessibility. Free, and a good start before Modern JavaScript.
      `),
    price: null,
    lecturers: [3],
    sections: [
      {
        title: 'HTML',
        lessons: [
          ['How the web works', 'video', 9, true],
          ['Headings, paragraphs and links', 'video', 12],
          ['Images and alternative text', 'video', 10],
        ],
      },
      {
        title: 'CSS',
        lessons: [
          ['Selectors and the cascade', 'video', 15],
          ['The box model', 'video', 13],
          ['Flexbox layouts', 'video', 18],
          ['Starter files', 'download'],
        ],
      },
      {
        title: 'Publishing',
        lessons: [
          ['Checking your page with a screen reader', 'video', 14],
          ['Putting it online', 'text'],
        ],
      },
    ],
  },
  {
    title: 'Modern JavaScript',
    subtitle: 'The language of the browser, properly',
    description: prose(`
        Variables, functions, modules, promises and the DOM, taught with small projects. For people who know some HTML
        and CSS and want to make pages interactive.
      `),
    price: 99,
    lecturers: [3],
    sections: [
      {
        title: 'Foundations',
        lessons: [
          ['Values, variables and types', 'video', 16, true],
          ['Functions and scope', 'video', 18],
          ['Arrays and objects', 'video', 17],
        ],
      },
      {
        title: 'The browser',
        lessons: [
          ['Selecting and changing elements', 'video', 15],
          ['Events', 'video', 14],
          ['Forms that help their users', 'text'],
        ],
      },
      {
        title: 'Asynchronous code',
        lessons: [
          ['Promises', 'video', 19],
          ['async and await', 'video', 15],
          ['Fetching data from an API', 'video', 20],
          ['Quiz: asynchronous code', 'quiz'],
        ],
      },
      {
        title: 'Project: a reading list app',
        dripDays: 14,
        lessons: [
          ['Planning the app', 'text'],
          ['Building it step by step', 'video', 35],
          ['Project files', 'download'],
        ],
      },
    ],
  },
  {
    title: 'Accessible Web Design',
    subtitle: 'Design and build for everyone',
    description: 'WCAG without the jargon: colour contrast, keyboard use, screen readers and forms. (In preparation.)',
    price: 59,
    lecturers: [3],
    draft: true,
    sections: [
      {
        title: 'Why accessibility',
        lessons: [
          ['Who we leave out', 'video', 10],
          ['The law and the guidelines', 'text'],
        ],
      },
      {
        title: 'Testing',
        lessons: [
          ['Keyboard-only testing', 'video', 12],
          ['Automated checkers and their limits', 'text'],
        ],
      },
    ],
  },
  {
    title: 'Italian Grammar in Depth',
    subtitle: 'From A2 to B1 with confidence',
    description:
      'The past tenses, pronouns and the subjunctive, explained with examples from everyday Italian. (In preparation.)',
    price: 49,
    lecturers: [2],
    draft: true,
    sections: [
      {
        title: 'The past',
        lessons: [
          ['Passato prossimo', 'video', 14],
          ['Imperfetto', 'video', 13],
          ['Exercises', 'pdf'],
        ],
      },
      {
        title: 'Pronouns',
        lessons: [
          ['Direct and indirect pronouns', 'video', 15],
          ['Ci and ne', 'text'],
        ],
      },
    ],
  },
];

/** Course titles the demo student is enrolled in: [title, progress percent]. 100 means completed. */
export const DEMO_ENROLLMENTS: readonly (readonly [string, number])[] = [
  ['Sketching Every Day', 100],
  ['Watercolour for Beginners', 40],
  ['Conversational Italian A1', 10],
];

export const DEMO_PAGES = [
  {
    title: 'About',
    slug: 'about',
    seo: 'Who we are and how our courses are made.',
    body: prose(`
      Meridian Academy is a small online school. Every course is taught by a working practitioner: an illustrator, a
      statistician, a language teacher and a web developer.

      We keep courses short and practical. Each lesson has one idea and one exercise, and most courses have free
      preview lessons so you can see how we teach before you buy.

      Questions? Write to us at the address on the FAQ page.
    `),
  },
  {
    title: 'Frequently asked questions',
    slug: 'faq',
    seo: 'Access, payments, refunds and certificates.',
    body: prose(`
      How long do I have access to a course?

      For as long as the school exists. Watch at your own pace.

      Can I try a course before I buy it?

      Yes. Lessons marked "Preview" are open to everyone.

      Do you offer refunds?

      Within 14 days of purchase, no questions asked.

      Do I get a certificate?

      Every course you complete shows on your account with the completion date.
    `),
  },
  {
    title: 'Terms of use',
    slug: 'terms',
    seo: 'The terms under which we offer our courses.',
    body: prose(`
      1. These terms apply to every course and page of Meridian Academy.

      2. A course purchase gives one person personal access to that course. Please do not share your account.

      3. Course materials remain the property of their lecturers; you may keep your own notes and exercises.

      4. We may update a course to keep it accurate; you keep access to the updated version.

      5. Refunds are available within 14 days of purchase.

      This is demo content, not legal advice.
    `),
  },
] as const;

/** Posts: days ago they were published (negative: scheduled in the future; null: draft). */
export const DEMO_POSTS = [
  {
    title: 'Welcome to Meridian Academy',
    slug: 'welcome',
    excerpt: 'Why we started a small school, and what to expect from it.',
    tags: ['news'],
    days: 45,
    body: prose(`
      We started Meridian Academy because we wanted courses we would take ourselves: short, practical, taught by
      people who do the work every day.

      Start with one of the free courses, Sketching Every Day, Spanish for Travellers or HTML & CSS from Scratch, and
      tell us what you think in the comments.
    `),
  },
  {
    title: 'Five habits of people who finish online courses',
    slug: 'five-habits',
    excerpt: 'Small routines that make the difference between starting and finishing.',
    tags: ['learning', 'tips'],
    days: 20,
    body: prose(`
      1. Schedule a fixed time, even if it is only fifteen minutes.

      2. Do the exercise before watching the next video.

      3. Keep your work where you can see it.

      4. Tell someone what you are learning.

      5. Forgive the missed days and carry on.
    `),
  },
  {
    title: 'New course: Data Visualisation that Tells a Story',
    slug: 'new-course-data-visualisation',
    excerpt: 'Amara’s new course is open for enrolment.',
    tags: ['news', 'data'],
    days: 6,
    body: prose(`
      Charts are arguments. In her new course, Dr. Amara Okafor shows how to choose the right chart, remove the
      clutter and make the point obvious, using real charts from newspapers and reports.

      The first lesson is a free preview.
    `),
  },
  {
    title: 'Summer sketching challenge',
    slug: 'summer-sketching-challenge',
    excerpt: 'Thirty days, thirty sketches, one community.',
    tags: ['events', 'art'],
    days: -5,
    body: prose(`
      From the first of next month, Jonas posts a prompt every morning. Share your sketch in the comments; at the end
      of the month we pick ten to feature on the school's front page.
    `),
  },
  {
    title: 'What we are working on',
    slug: 'what-we-are-working-on',
    excerpt: 'A look at the courses in preparation.',
    tags: ['news'],
    days: null,
    body: prose(`
      Accessible Web Design and Italian Grammar in Depth are in preparation. (Draft: add dates before publishing.)
    `),
  },
] as const;

/** Comments on posts by slug; replyTo is the index of the comment (in this list) being answered. */
export const DEMO_COMMENTS: readonly { post: string; author: 'staff' | 'student'; body: string; replyTo?: number }[] = [
  { post: 'welcome', author: 'student', body: 'Just finished the first week of Sketching Every Day. Loving it!' },
  { post: 'welcome', author: 'staff', body: 'Wonderful to hear, Sam. Post a sketch when you are ready!', replyTo: 0 },
  { post: 'five-habits', author: 'student', body: 'Number 2 changed everything for me. Doing before watching.' },
  { post: 'five-habits', author: 'staff', body: 'Number 5 is the one I need to remember most.', replyTo: 2 },
  { post: 'new-course-data-visualisation', author: 'student', body: 'Will there be exercises in Python too?' },
  {
    post: 'new-course-data-visualisation',
    author: 'staff',
    body: 'Yes: every makeover comes with a notebook for Python and a spreadsheet version.',
    replyTo: 4,
  },
];
