// Makes the demo school's media, all of it from nothing but this script: a short welcome video with a spoken track
// and its WebVTT captions, a poster, a short audio lesson with captions, a PDF checklist, course covers and
// lecturer portraits (abstract shapes, no photographs). The files go to src/demo/media/ and are committed; run this
// again only to change them.
//
//   apt-get install ffmpeg espeak-ng fonts-dejavu-core     (Debian's)
//   node scripts/demo-media.ts
//
// Speech is espeak-ng's, slides and pictures are SVG drawn by sharp (the school's image library) in DejaVu Sans, the
// video is encoded by ffmpeg (H.264 and AAC in MP4), the audio as MP3, the PDF by pdfkit with DejaVu Sans embedded.
// A pseudo-random generator with a fixed seed gives every run the same shapes.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { DEMO_COURSES, DEMO_LECTURERS } from '../src/demo/content.ts';
import { DEMO_MEDIA, type DemoMediaFacts, mediaDir } from '../src/demo/media.ts';

const OUT = fileURLToPath(mediaDir);
const WORK = mkdtempSync(join(tmpdir(), 'lyceum-demo-media-'));
const FONT = 'DejaVu Sans';
const VOICE = ['-v', 'en-gb', '-s', '155', '-p', '45'];

const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
const seconds = (file: string) =>
  Number(run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).toString());
const escapeXml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** mulberry32: a small seeded generator, so a rerun draws the same pictures. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Palettes of the demo's subjects: painting, data, languages, the web. */
const PALETTES = [
  ['#0f766e', '#5eead4', '#f59e0b', '#fef3c7'],
  ['#1e3a8a', '#60a5fa', '#f472b6', '#e0f2fe'],
  ['#7c2d12', '#fb923c', '#fde68a', '#fff7ed'],
  ['#14532d', '#4ade80', '#a3e635', '#f0fdf4'],
  ['#4c1d95', '#a78bfa', '#f0abfc', '#f5f3ff'],
  ['#831843', '#f472b6', '#fda4af', '#fff1f2'],
  ['#0c4a6e', '#38bdf8', '#facc15', '#ecfeff'],
];

/** An abstract cover: a wash of the palette's colours, soft overlapping discs and a few strokes, 1200×675. */
function coverSvg(index: number): string {
  const next = random(1000 + index * 7919);
  const [deep, mid, warm, light] = PALETTES[index % PALETTES.length] as string[];
  const discs = Array.from({ length: 7 }, () => {
    const colour = [mid, warm, light][Math.floor(next() * 3)];
    return `<circle cx="${Math.round(next() * 1200)}" cy="${Math.round(next() * 675)}" r="${Math.round(80 + next() * 260)}" fill="${colour}" opacity="${(0.25 + next() * 0.45).toFixed(2)}"/>`;
  }).join('');
  const strokes = Array.from({ length: 4 }, () => {
    const y = Math.round(100 + next() * 475);
    return `<path d="M-50 ${y} C 300 ${y - 120 + next() * 240}, 800 ${y - 120 + next() * 240}, 1250 ${y + Math.round(next() * 80 - 40)}" stroke="${light}" stroke-width="${Math.round(4 + next() * 14)}" fill="none" opacity=".55" stroke-linecap="round"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675" viewBox="0 0 1200 675">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${deep}"/><stop offset="1" stop-color="${mid}"/></linearGradient>
<filter id="soft"><feGaussianBlur stdDeviation="18"/></filter></defs>
<rect width="1200" height="675" fill="url(#g)"/><g filter="url(#soft)">${discs}</g>${strokes}</svg>`;
}

/** An abstract portrait: a head-and-shoulders silhouette on a two-colour ground, with the lecturer's initials. */
function portraitSvg(index: number, name: string): string {
  const [deep, mid, warm, light] = PALETTES[(index * 2 + 1) % PALETTES.length] as string[];
  const initials = name
    .replace(/^Dr\. /, '')
    .split(' ')
    .map((part) => part[0])
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 480 480">
<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${mid}"/><stop offset="1" stop-color="${deep}"/></linearGradient></defs>
<rect width="480" height="480" fill="url(#g)"/><circle cx="380" cy="90" r="120" fill="${warm}" opacity=".35"/>
<circle cx="240" cy="200" r="92" fill="${light}"/><path d="M60 480 C 70 350, 160 300, 240 300 C 320 300, 410 350, 420 480 Z" fill="${light}"/>
<text x="240" y="228" text-anchor="middle" font-family="${FONT}" font-weight="bold" font-size="76" fill="${deep}">${escapeXml(initials)}</text></svg>`;
}

/** One slide of the welcome video, 1280×720: a title, a line, the course's name, on the course's colours. */
function slideSvg(slide: { title: string; line: string }, index: number): string {
  const [deep, mid, warm, light] = PALETTES[0] as string[];
  const next = random(50 + index);
  const discs = Array.from({ length: 5 }, () =>
    [
      `<circle cx="${Math.round(700 + next() * 600)}" cy="${Math.round(next() * 720)}"`,
      ` r="${Math.round(60 + next() * 200)}" fill="${[mid, warm][index % 2]}" opacity="${(0.2 + next() * 0.3).toFixed(2)}"/>`,
    ].join(''),
  ).join('');
  const lines = wrap(slide.line, 40)
    .map((l, i) => `<tspan x="96" dy="${i === 0 ? 0 : 62}">${escapeXml(l)}</tspan>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720" viewBox="0 0 1280 720">
<rect width="1280" height="720" fill="${deep}"/><g filter="url(#s)">${discs}</g>
<defs><filter id="s"><feGaussianBlur stdDeviation="24"/></filter></defs>
<text x="96" y="110" font-family="${FONT}" font-size="30" fill="${light}" opacity=".9">Watercolour for Beginners · Jonas Lindqvist</text>
<text x="96" y="300" font-family="${FONT}" font-weight="bold" font-size="76" fill="#ffffff">${escapeXml(slide.title)}</text>
<text x="96" y="400" font-family="${FONT}" font-size="46" fill="${light}">${lines}</text></svg>`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** mm:ss.mmm as WebVTT writes a time. */
const vttTime = (s: number) => {
  const ms = Math.round(s * 1000);
  const mm = String(Math.floor(ms / 60000)).padStart(2, '0');
  const ss = String(Math.floor((ms % 60000) / 1000)).padStart(2, '0');
  return `${mm}:${ss}.${String(ms % 1000).padStart(3, '0')}`;
};

/**
 * Speaks each sentence (espeak-ng), joins them with a short pause, and gives each its time span: the captions follow
 * the speech exactly because they are made from the same pieces.
 */
function speak(name: string, sentences: readonly string[], gap = 0.45) {
  const parts: string[] = [];
  const cues: { start: number; end: number; text: string }[] = [];
  let at = 0.3;
  const silence = join(WORK, `${name}-gap.wav`);
  run('ffmpeg', ['-y', '-v', 'error', '-f', 'lavfi', '-i', `anullsrc=r=22050:cl=mono`, '-t', String(gap), silence]);
  const lead = join(WORK, `${name}-lead.wav`);
  run('ffmpeg', ['-y', '-v', 'error', '-f', 'lavfi', '-i', `anullsrc=r=22050:cl=mono`, '-t', '0.3', lead]);
  parts.push(lead);
  sentences.forEach((sentence, i) => {
    const file = join(WORK, `${name}-${i}.wav`);
    run('espeak-ng', [...VOICE, '-w', file, sentence]);
    const length = seconds(file);
    cues.push({ start: at, end: at + length, text: sentence });
    at += length + gap;
    parts.push(file, silence);
  });
  const list = join(WORK, `${name}-parts.txt`);
  writeFileSync(list, parts.map((p) => `file '${p}'`).join('\n'));
  const wav = join(WORK, `${name}.wav`);
  run('ffmpeg', ['-y', '-v', 'error', '-f', 'concat', '-safe', '0', '-i', list, '-ar', '22050', '-ac', '1', wav]);
  const vtt = `WEBVTT\n\n${cues
    .map((c, i) => `${i + 1}\n${vttTime(c.start)} --> ${vttTime(c.end)}\n${c.text}\n`)
    .join('\n')}`;
  return { wav, vtt, cues, length: at };
}

async function video() {
  const { file, captions, poster, slides } = DEMO_MEDIA.video;
  const speech = speak(
    'welcome',
    slides.map((s) => s.say),
  );
  const list: string[] = [];
  for (const [i, slide] of slides.entries()) {
    const png = join(WORK, `slide-${i}.png`);
    await sharp(Buffer.from(slideSvg(slide, i)))
      .png()
      .toFile(png);
    const cue = speech.cues[i];
    const until = speech.cues[i + 1]?.start ?? speech.length + 0.5;
    list.push(`file '${png}'`, `duration ${(until - (i === 0 ? 0 : (cue?.start ?? 0))).toFixed(3)}`);
    if (i === 0) await sharp(png).resize(1280, 720).jpeg({ quality: 72, mozjpeg: true }).toFile(join(OUT, poster));
  }
  // The concat demuxer takes the last picture's duration only when it is listed once more.
  list.push(list.at(-2) as string);
  const slidesList = join(WORK, 'slides.txt');
  writeFileSync(slidesList, list.join('\n'));
  run('ffmpeg', [
    '-y',
    '-v',
    'error',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    slidesList,
    '-i',
    speech.wav,
    '-vf',
    'scale=854:480,fps=12,format=yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'veryslow',
    '-tune',
    'stillimage',
    '-crf',
    '30',
    '-g',
    '48',
    '-c:a',
    'aac',
    '-b:a',
    '40k',
    '-ac',
    '1',
    '-shortest',
    '-movflags',
    '+faststart',
    '-map_metadata',
    '-1',
    join(OUT, file),
  ]);
  writeFileSync(join(OUT, captions), speech.vtt);
  return Math.round(seconds(join(OUT, file)));
}

function audio() {
  const { file, captions, sentences } = DEMO_MEDIA.audio;
  const speech = speak('word', sentences);
  run('ffmpeg', [
    '-y',
    '-v',
    'error',
    '-i',
    speech.wav,
    '-c:a',
    'libmp3lame',
    '-b:a',
    '32k',
    '-ac',
    '1',
    '-ar',
    '22050',
    '-map_metadata',
    '-1',
    '-write_xing',
    '1',
    join(OUT, file),
  ]);
  writeFileSync(join(OUT, captions), speech.vtt);
  return Math.round(seconds(join(OUT, file)));
}

/** The materials checklist: a page a student prints, with boxes to tick; DejaVu Sans embedded so it reads the same anywhere. */
async function pdf() {
  const { file, title, groups, tips } = DEMO_MEDIA.pdf;
  const font = fileURLToPath(import.meta.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'));
  const bold = fileURLToPath(import.meta.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'));
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: title, Author: 'Meridian Academy (demo)', Creator: 'Lyceum scripts/demo-media.ts' },
  });
  // A fixed creation date, so the file is the same at every run.
  doc.info.CreationDate = new Date('2026-01-01T00:00:00Z');
  const done = new Promise<void>((resolve) => {
    const out = createWriteStream(join(OUT, file));
    out.on('finish', () => resolve());
    doc.pipe(out);
  });
  doc.registerFont('body', font).registerFont('bold', bold);
  const [deep, mid] = PALETTES[0] as string[];
  doc.rect(0, 0, doc.page.width, 110).fill(deep);
  doc.fillColor('#ffffff').font('bold').fontSize(24).text(title, 56, 40);
  doc.font('body').fontSize(11).text('Watercolour for Beginners · Section 1', 56, 74);
  doc.moveDown(3).fillColor('#1f2937');
  let y = 140;
  for (const group of groups) {
    doc.font('bold').fontSize(14).fillColor(deep).text(group.heading, 56, y);
    y += 26;
    for (const item of group.items) {
      doc
        .lineWidth(1.2)
        .strokeColor(mid)
        .rect(60, y + 1, 11, 11)
        .stroke();
      doc.font('body').fontSize(11.5).fillColor('#1f2937').text(item, 82, y, { width: 440 });
      y += 22;
    }
    y += 12;
  }
  doc.font('bold').fontSize(14).fillColor(deep).text('Before you start', 56, y);
  y += 24;
  doc.font('body').fontSize(11.5).fillColor('#1f2937');
  for (const tip of tips) {
    doc.text(`•  ${tip}`, 60, y, { width: 470 });
    y = doc.y + 6;
  }
  doc.end();
  await done;
}

async function covers() {
  for (const [i, course] of DEMO_COURSES.entries()) {
    const name = DEMO_MEDIA.coverFile(course.title);
    await sharp(Buffer.from(coverSvg(i)))
      .jpeg({ quality: 62, mozjpeg: true })
      .toFile(join(OUT, name));
  }
  for (const [i, lecturer] of DEMO_LECTURERS.entries()) {
    const name = DEMO_MEDIA.portraitFile(lecturer.name);
    await sharp(Buffer.from(portraitSvg(i, lecturer.name)))
      .jpeg({ quality: 70, mozjpeg: true })
      .toFile(join(OUT, name));
  }
}

mkdirSync(OUT, { recursive: true });
try {
  const facts: DemoMediaFacts = { video_s: await video(), audio_s: audio() };
  await pdf();
  await covers();
  writeFileSync(join(OUT, 'facts.json'), `${JSON.stringify(facts, null, 2)}\n`);
  const files = readdirSync(OUT);
  const total = files.reduce((sum, name) => sum + statSync(join(OUT, name)).size, 0);
  process.stdout.write(`src/demo/media: ${files.length} files, ${(total / 1024).toFixed(0)} KiB\n`);
} finally {
  rmSync(WORK, { recursive: true, force: true });
}
