// The lesson player: the page's own <video> or <audio> (with native controls, which stay when this script does not
// run) gets a bar of plain buttons and selects, keyboard shortcuts, captions and speed, and — for an enrolled
// student — resumes where they stopped: the position is saved every ten seconds while playing, on pause and when the
// page goes (sendBeacon), to the page's own address with the form's CSRF token.

const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2];
const SAVE_EVERY_MS = 10_000;
/** Closer than this to either end, there is nothing to resume. */
const RESUME_MARGIN_S = 5;

/** 75 → "1:15", 3725 → "1:02:05". */
function clock(seconds) {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** "1 minute 15 seconds", for screen readers. */
function spoken(seconds) {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const m = Math.floor(s / 60);
  const parts = [];
  if (m) parts.push(`${m} minute${m === 1 ? '' : 's'}`);
  parts.push(`${s % 60} second${s % 60 === 1 ? '' : 's'}`);
  return parts.join(' ');
}

function element(tag, attributes = {}, text = '') {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

function player(box) {
  const media = box.querySelector('video, audio');
  if (!media) return;
  const isVideo = media.tagName === 'VIDEO';
  const status = element('p', { class: 'player-status', role: 'status', 'aria-live': 'polite' });
  const say = (text) => {
    status.textContent = text;
  };

  // The bar replaces the native controls; media keeps them if anything below fails.
  const bar = element('div', {
    class: 'player-bar',
    role: 'group',
    'aria-label': `${isVideo ? 'Video' : 'Audio'} controls`,
  });
  const play = element('button', { type: 'button', class: 'player-play', 'aria-keyshortcuts': 'k' }, 'Play');
  const back = element('button', { type: 'button', 'aria-keyshortcuts': 'j', title: 'Back 10 seconds (J)' }, '−10 s');
  const ahead = element('button', { type: 'button', 'aria-keyshortcuts': 'l', title: 'Ahead 10 seconds (L)' }, '+10 s');
  const seek = element('input', {
    type: 'range',
    min: '0',
    max: '0',
    step: '1',
    value: '0',
    class: 'player-seek',
    'aria-label': 'Position',
  });
  const time = element('span', { class: 'player-time', 'aria-hidden': 'true' }, '0:00 / 0:00');
  const mute = element('button', { type: 'button', 'aria-pressed': 'false', 'aria-keyshortcuts': 'm' }, 'Mute');
  const speedLabel = element('label', { class: 'player-field' });
  const speed = element('select', { 'aria-keyshortcuts': '< >' });
  for (const rate of SPEEDS) speed.append(element('option', { value: String(rate) }, `${rate}×`));
  speed.value = '1';
  speedLabel.append(element('span', {}, 'Speed'), speed);
  const trackElements = [...media.querySelectorAll('track')];
  const tracks = trackElements.map((t) => t.track);
  const captionsLabel = element('label', { class: 'player-field' });
  const captions = element('select', { 'aria-keyshortcuts': 'c' });
  captions.append(element('option', { value: '' }, 'Off'));
  tracks.forEach((track, i) => {
    captions.append(element('option', { value: String(i) }, track.label || track.language));
  });
  captionsLabel.append(element('span', {}, 'Captions'), captions);
  const full = element('button', { type: 'button', 'aria-keyshortcuts': 'f' }, 'Full screen');

  bar.append(play, back, ahead, seek, time, mute, speedLabel);
  if (tracks.length) bar.append(captionsLabel);
  if (isVideo && document.fullscreenEnabled) bar.append(full);

  // For audio, the current caption is written out below the player (an <audio> shows none).
  const cue = isVideo ? null : element('p', { class: 'player-cue', 'aria-live': 'off' });

  media.removeAttribute('controls');
  box.classList.add('enhanced');
  media.after(bar);
  if (cue) bar.after(cue);
  box.append(status);

  const help = box.querySelector('.player-keys');
  if (help) help.hidden = false;

  // A file that cannot be loaded (moved, or its host away) leaves a dead black box with live-looking buttons: it is
  // said in words instead, with the file's own address to try (is-unplayable hides the player, player.css).
  function unplayable() {
    if (box.classList.contains('is-unplayable')) return;
    box.classList.add('is-unplayable');
    const kind = isVideo ? 'video' : 'recording';
    const note = element('p', { class: 'player-problem', role: 'alert' });
    note.append(
      element('strong', {}, `This ${kind} can’t be played right now.`),
      ` Its file could not be loaded: reload the page to try again, or `,
      element('a', { href: media.currentSrc || media.getAttribute('src') || '' }, `open the ${kind} file`),
      '.',
    );
    media.before(note);
  }
  media.addEventListener('error', unplayable);
  if (media.error) unplayable();

  /** The caption track shown: a video shows it, an audio's is read out below. */
  function showTrack(index, announce) {
    tracks.forEach((track, i) => {
      track.mode = i === index ? (isVideo ? 'showing' : 'hidden') : 'disabled';
    });
    captions.value = index === -1 ? '' : String(index);
    if (cue) cue.textContent = '';
    if (announce) say(index === -1 ? 'Captions off' : `Captions: ${captions.selectedOptions[0].textContent}`);
  }
  const first = trackElements.findIndex((t) => t.default);
  let lastTrack = Math.max(first, 0);
  showTrack(first, false);
  for (const track of tracks) {
    track.addEventListener('cuechange', () => {
      if (cue && track.mode === 'hidden') cue.textContent = [...(track.activeCues ?? [])].map((c) => c.text).join(' ');
    });
  }
  captions.addEventListener('change', () => {
    const index = captions.value === '' ? -1 : Number(captions.value);
    if (index !== -1) lastTrack = index;
    showTrack(index, true);
  });
  const toggleCaptions = () => {
    if (!tracks.length) return;
    showTrack(captions.value === '' ? lastTrack : -1, true);
  };

  const setSpeed = (rate) => {
    media.playbackRate = rate;
    speed.value = String(rate);
    say(`Speed ${rate}×`);
  };
  speed.addEventListener('change', () => setSpeed(Number(speed.value)));
  const stepSpeed = (step) => {
    const at = SPEEDS.indexOf(media.playbackRate);
    const next = SPEEDS[Math.min(SPEEDS.length - 1, Math.max(0, (at === -1 ? 1 : at) + step))];
    setSpeed(next);
  };

  const toggle = () => (media.paused || media.ended ? media.play().catch(() => {}) : media.pause());
  play.addEventListener('click', toggle);
  if (isVideo)
    media.addEventListener('click', () => {
      toggle();
      play.focus();
    });
  const skip = (seconds) => {
    const end = Number.isFinite(media.duration) ? media.duration : Infinity;
    media.currentTime = Math.min(end, Math.max(0, media.currentTime + seconds));
    say(`${seconds < 0 ? 'Back' : 'Ahead'} ${Math.abs(seconds)} seconds: ${spoken(media.currentTime)}`);
  };
  back.addEventListener('click', () => skip(-10));
  ahead.addEventListener('click', () => skip(10));
  const toggleMute = () => {
    media.muted = !media.muted;
  };
  mute.addEventListener('click', toggleMute);
  const toggleFull = () => {
    if (!isVideo || !document.fullscreenEnabled) return;
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else box.requestFullscreen().catch(() => {});
  };
  full.addEventListener('click', toggleFull);
  document.addEventListener('fullscreenchange', () => {
    full.textContent = document.fullscreenElement === box ? 'Exit full screen' : 'Full screen';
  });

  seek.addEventListener('input', () => {
    media.currentTime = Number(seek.value);
  });
  const showTime = () => {
    const duration = Number.isFinite(media.duration) ? media.duration : 0;
    seek.max = String(Math.floor(duration));
    seek.value = String(Math.floor(media.currentTime));
    seek.setAttribute('aria-valuetext', `${spoken(media.currentTime)} of ${spoken(duration)}`);
    time.textContent = `${clock(media.currentTime)} / ${clock(duration)}`;
  };
  media.addEventListener('timeupdate', showTime);
  media.addEventListener('durationchange', showTime);
  media.addEventListener('loadedmetadata', showTime);
  media.addEventListener('play', () => {
    play.textContent = 'Pause';
  });
  media.addEventListener('pause', () => {
    play.textContent = 'Play';
  });
  media.addEventListener('volumechange', () => {
    mute.setAttribute('aria-pressed', String(media.muted));
    mute.textContent = media.muted ? 'Unmute' : 'Mute';
  });
  media.addEventListener('ratechange', () => {
    speed.value = String(media.playbackRate);
  });

  // Keys work while focus is anywhere in the player, except where a control needs them itself (a select's letters,
  // the slider's arrows, a button's space).
  box.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const inSelect = target instanceof HTMLSelectElement;
    const onSlider = target === seek;
    const onButton = target instanceof HTMLButtonElement;
    const actions = {
      ' ': onButton ? null : toggle,
      k: toggle,
      j: () => skip(-10),
      l: () => skip(10),
      ArrowLeft: onSlider || inSelect ? null : () => skip(-5),
      ArrowRight: onSlider || inSelect ? null : () => skip(5),
      m: toggleMute,
      c: toggleCaptions,
      f: toggleFull,
      '<': () => stepSpeed(-1),
      '>': () => stepSpeed(1),
    };
    const action = inSelect && event.key !== '<' && event.key !== '>' ? null : actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });

  resume(box, media, say);
}

/** Resuming and saving, for a student (the page gives the address to save to only then). */
function resume(box, media, say) {
  const url = box.dataset.save;
  const csrf = box.dataset.csrf;
  if (!url || !csrf) return;
  const saved = Number(box.dataset.resume || 0);
  let lastSent = -1;
  let completed = box.dataset.completed === 'true';

  const body = () =>
    new URLSearchParams({
      _csrf: csrf,
      position_s: String(Math.floor(media.currentTime)),
      duration_s: String(media.duration),
    });
  const worth = () =>
    Number.isFinite(media.duration) && media.duration > 0 && Math.floor(media.currentTime) !== lastSent;

  let retry;
  async function save() {
    clearTimeout(retry);
    if (!worth()) return;
    lastSent = Math.floor(media.currentTime);
    try {
      const answer = await fetch(url, {
        method: 'POST',
        body: body(),
        credentials: 'same-origin',
        keepalive: true,
        headers: { accept: 'application/json' },
      });
      // Too soon after another save (this tab's or another's): the place is not kept yet, so it is sent again when
      // the server allows, and leaving the page before then still carries it.
      if (answer.status === 429) {
        lastSent = -1;
        const wait = Number(answer.headers.get('retry-after')) || 2;
        retry = setTimeout(save, wait * 1000 + 100);
        return;
      }
      if (answer.ok && answer.status !== 204) {
        const result = await answer.json();
        if (result.completed && !completed) {
          completed = true;
          say('Lesson complete.');
          const form = document.querySelector('form.complete-lesson');
          if (form) form.replaceWith(element('p', { class: 'done-note' }, 'Completed.'));
        }
      }
    } catch {
      // Offline for a moment: the next save, or the one when the page goes, carries the position.
      lastSent = -1;
    }
  }

  let timer;
  media.addEventListener('play', () => {
    clearInterval(timer);
    timer = setInterval(save, SAVE_EVERY_MS);
  });
  media.addEventListener('pause', () => {
    clearInterval(timer);
    save();
  });
  media.addEventListener('ended', save);
  addEventListener('pagehide', () => {
    if (worth()) navigator.sendBeacon(url, body());
  });

  if (!(saved > RESUME_MARGIN_S)) return;
  const offer = element('div', { class: 'player-resume', role: 'group', 'aria-label': 'Resume' });
  const go = element('button', { type: 'button' }, `Resume from ${clock(saved)}`);
  const over = element('button', { type: 'button', class: 'secondary' }, 'Start over');
  offer.append(go, over);
  box.prepend(offer);
  const seekTo = (seconds) => {
    const jump = () => {
      const end = Number.isFinite(media.duration) ? media.duration - RESUME_MARGIN_S : seconds;
      media.currentTime = Math.max(0, Math.min(seconds, end));
    };
    if (media.readyState >= 1) jump();
    else media.addEventListener('loadedmetadata', jump, { once: true });
  };
  // The place is taken at once, so pressing play (or Space) goes on from there; Start over goes back to 0.
  seekTo(saved);
  go.addEventListener('click', () => {
    seekTo(saved);
    offer.remove();
    media.play().catch(() => {});
    box.querySelector('.player-play')?.focus();
  });
  over.addEventListener('click', () => {
    seekTo(0);
    offer.remove();
    say('From the start');
    media.play().catch(() => {});
    box.querySelector('.player-play')?.focus();
  });
}

for (const box of document.querySelectorAll('[data-player]')) player(box);
