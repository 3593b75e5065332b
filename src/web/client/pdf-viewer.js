// A PDF lesson in the page: pdf.js (served by the school, as is its worker) draws one page at a time on a canvas,
// with previous / next, zoom and the page's text for screen readers. Without this script the page keeps its links to
// open and download the file.

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

function element(tag, attributes = {}, text = '') {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

async function viewer(box) {
  const { pdf: url, pdfjs, worker, title } = box.dataset;
  if (!url || !pdfjs || !worker) return;
  const status = element('p', { class: 'pdf-status', role: 'status' }, 'Opening the PDF…');
  box.append(status);
  let lib;
  let doc;
  try {
    lib = await import(pdfjs);
    lib.GlobalWorkerOptions.workerSrc = worker;
    doc = await lib.getDocument({ url, isEvalSupported: false }).promise;
  } catch {
    status.textContent = 'The PDF could not be shown here; open or download it with the links above.';
    return;
  }

  const bar = element('div', { class: 'pdf-toolbar', role: 'toolbar', 'aria-label': 'PDF pages and zoom' });
  const previous = element('button', { type: 'button' }, 'Previous page');
  const next = element('button', { type: 'button' }, 'Next page');
  const where = element('span', { class: 'pdf-page' });
  const smaller = element('button', { type: 'button', 'aria-label': 'Zoom out' }, '−');
  const larger = element('button', { type: 'button', 'aria-label': 'Zoom in' }, '+');
  const zoomShown = element('span', { class: 'pdf-zoom' });
  bar.append(previous, where, next, smaller, zoomShown, larger);
  // Focusable, so a page wider than the screen (zoomed in) can be scrolled with the keys.
  const frame = element('div', { class: 'pdf-frame', tabindex: '0', role: 'region', 'aria-label': 'PDF page' });
  const canvas = element('canvas', { role: 'img' });
  const text = element('div', { class: 'visually-hidden' });
  frame.append(canvas);
  status.textContent = '';
  box.append(bar, frame, text);

  let number = 1;
  let zoom = 1;
  let drawing;

  async function draw() {
    drawing?.cancel();
    const page = await doc.getPage(number);
    const natural = page.getViewport({ scale: 1 });
    // Fit the viewer's width (less the frame's padding and border) at 100 %, sharp on high-density screens.
    const fit = Math.max(box.clientWidth - 20, 200) / natural.width;
    const viewport = page.getViewport({ scale: fit * zoom });
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    canvas.style.width = `${Math.floor(viewport.width)}px`;
    canvas.style.height = `${Math.floor(viewport.height)}px`;
    const label = `Page ${number} of ${doc.numPages}${title ? ` of ${title}` : ''}`;
    canvas.setAttribute('aria-label', label);
    where.textContent = `Page ${number} of ${doc.numPages}`;
    zoomShown.textContent = `${Math.round(zoom * 100)} %`;
    previous.disabled = number <= 1;
    next.disabled = number >= doc.numPages;
    smaller.disabled = zoom <= ZOOMS[0];
    larger.disabled = zoom >= ZOOMS[ZOOMS.length - 1];
    drawing = page.render({
      canvas,
      canvasContext: canvas.getContext('2d'),
      viewport,
      transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
    });
    try {
      await drawing.promise;
    } catch (error) {
      if (error?.name !== 'RenderingCancelledException') throw error;
      return;
    }
    const content = await page.getTextContent();
    text.textContent = content.items.map((item) => item.str).join(' ');
    box.dataset.rendered = String(number);
  }

  const go = (step) => {
    const to = Math.min(doc.numPages, Math.max(1, number + step));
    if (to === number) return;
    number = to;
    draw().then(() => {
      status.textContent = `Page ${number} of ${doc.numPages}`;
    });
  };
  const scale = (step) => {
    const at = ZOOMS.indexOf(zoom);
    zoom = ZOOMS[Math.min(ZOOMS.length - 1, Math.max(0, at + step))];
    draw().then(() => {
      status.textContent = `Zoom ${Math.round(zoom * 100)} %`;
    });
  };
  previous.addEventListener('click', () => go(-1));
  next.addEventListener('click', () => go(1));
  smaller.addEventListener('click', () => scale(-1));
  larger.addEventListener('click', () => scale(1));
  box.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement) return;
    const keys = { PageDown: () => go(1), PageUp: () => go(-1), '+': () => scale(1), '-': () => scale(-1) };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });
  // Drawn anew when the viewer's width changes (a turned phone), never because of the canvas itself.
  let width = box.clientWidth;
  new ResizeObserver(() => {
    if (Math.abs(box.clientWidth - width) < 8) return;
    width = box.clientWidth;
    draw();
  }).observe(box);
  await draw();
}

for (const box of document.querySelectorAll('[data-pdf]')) viewer(box);
