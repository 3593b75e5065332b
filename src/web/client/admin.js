// The admin works without this script; it only adds conveniences on top of the server-rendered forms.

/**
 * Drag-and-drop ordering of the course builder's sections and lessons. A drop posts the new order to the builder's
 * own address (the same handler as its Move buttons, which stay for keyboard and no-script use) and says the outcome
 * in the page's status region; a refusal puts the list back as it was.
 */
function sortableLists() {
  const status = document.getElementById('builder-status');
  const orderForm = document.getElementById('builder-order');
  if (!orderForm) return;
  const csrf = orderForm.querySelector('input[name="_csrf"]').value;
  let dragged = null;
  let origin = null;

  const post = async (fields) => {
    const body = new URLSearchParams({ _csrf: csrf, ...fields });
    const response = await fetch(orderForm.action, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body,
      credentials: 'same-origin',
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.error_description || 'The change was refused.');
  };
  const say = (text) => {
    if (status) status.textContent = text;
  };

  for (const list of document.querySelectorAll('[data-sortable]')) {
    const kind = list.dataset.sortable;
    const itemClass = kind === 'sections' ? 'builder-section' : 'builder-lesson';
    list.addEventListener('dragstart', (event) => {
      const item = event.target.closest?.(`.${itemClass}`);
      if (!item || item.parentElement !== list) return;
      event.stopPropagation();
      dragged = item;
      origin = { list, next: item.nextElementSibling };
      item.classList.add('dragging');
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('text/plain', item.dataset.id);
    });
    list.addEventListener('dragover', (event) => {
      if (!dragged?.classList.contains(itemClass)) return;
      event.preventDefault();
      event.stopPropagation();
      const over = event.target.closest?.(`.${itemClass}`);
      if (!over || over === dragged) {
        if (!over && list.children.length === 0) list.append(dragged);
        return;
      }
      const box = over.getBoundingClientRect();
      const after = event.clientY > box.top + box.height / 2;
      over.parentElement.insertBefore(dragged, after ? over.nextElementSibling : over);
    });
    list.addEventListener('drop', async (event) => {
      if (!dragged?.classList.contains(itemClass)) return;
      event.preventDefault();
      event.stopPropagation();
      const item = dragged;
      const from = origin;
      const target = item.parentElement;
      const ids = [...target.children].map((child) => child.dataset.id);
      try {
        if (kind === 'sections') await post({ do: 'order-sections', order: ids.join(',') });
        else if (target === from.list)
          await post({ do: 'order-lessons', section: target.dataset.section, order: ids.join(',') });
        else
          await post({
            do: 'place-lesson',
            lesson: item.dataset.id,
            to_section: target.dataset.section,
            position: String(ids.indexOf(item.dataset.id)),
          });
        say('Saved the new order.');
      } catch (error) {
        from.list.insertBefore(item, from.next);
        say(error.message);
      }
    });
    list.addEventListener('dragend', () => {
      if (dragged) dragged.classList.remove('dragging');
      dragged = null;
    });
  }
}

sortableLists();

/**
 * A Preview button under each Markdown text box: the text as the site will show it, rendered by the school (the same
 * renderer as its pages) into a region below the box. Without the script the object's own page shows the result.
 */
function markdownPreviews() {
  for (const box of document.querySelectorAll('textarea[data-markdown-preview]')) {
    const form = box.closest('form');
    const csrf = form?.querySelector('input[name="_csrf"]')?.value;
    if (!csrf) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'small secondary';
    button.textContent = 'Preview';
    button.setAttribute('aria-controls', `${box.id}-preview`);
    const region = document.createElement('div');
    region.id = `${box.id}-preview`;
    region.className = 'preview';
    region.setAttribute('aria-live', 'polite');
    region.hidden = true;
    box.after(button, region);
    button.addEventListener('click', async () => {
      if (!region.hidden) {
        region.hidden = true;
        button.textContent = 'Preview';
        return;
      }
      const response = await fetch('/admin/preview', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, text: box.value }),
        credentials: 'same-origin',
      });
      region.innerHTML = response.ok ? await response.text() : '<p>The preview could not be made.</p>';
      region.hidden = false;
      button.textContent = 'Hide preview';
    });
  }
}

markdownPreviews();

/**
 * A lesson's file upload with a progress bar: the file is announced to the school (which checks its type and size
 * and answers with an upload address), then sent there with XMLHttpRequest, whose upload events drive the bar. The
 * status line says the outcome in words; it is updated at each quarter, not on every event, for screen readers.
 */
function mediaUploads() {
  for (const box of document.querySelectorAll('[data-media-upload]')) {
    const input = box.querySelector('input[type="file"]');
    const bar = box.querySelector('progress');
    const status = box.querySelector('[role="status"]');
    const csrf = box.querySelector('input[name="_csrf"]')?.value;
    if (!input || !bar || !status || !csrf) continue;
    input.addEventListener('change', async () => {
      const file = input.files?.[0];
      if (!file) return;
      const type = file.type || 'application/octet-stream';
      status.textContent = `Preparing ${file.name}…`;
      const start = await fetch(box.dataset.start, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _csrf: csrf,
          filename: file.name,
          content_type: type,
          byte_size: String(file.size),
        }),
        credentials: 'same-origin',
      });
      const started = await start.json().catch(() => ({}));
      if (!start.ok) {
        status.textContent = started.error_description || 'The file was refused.';
        return;
      }
      const request = new XMLHttpRequest();
      request.open('PUT', started.upload_url);
      request.setRequestHeader('content-type', type);
      bar.hidden = false;
      bar.value = 0;
      let quarter = 0;
      request.upload.addEventListener('progress', (event) => {
        if (!event.lengthComputable) return;
        bar.value = Math.floor((event.loaded * 100) / event.total);
        if (Math.floor(bar.value / 25) > quarter) {
          quarter = Math.floor(bar.value / 25);
          status.textContent = `Uploading ${file.name}: ${bar.value} %`;
        }
      });
      request.addEventListener('load', () => {
        const answer = JSON.parse(request.responseText || '{}');
        if (request.status < 300) {
          bar.value = 100;
          status.textContent = `Uploaded ${file.name} (100 %); the lesson now uses it.`;
        } else status.textContent = answer.error_description || 'The upload failed.';
      });
      request.addEventListener('error', () => {
        status.textContent = 'The upload failed; check the connection and try again.';
      });
      request.send(file);
    });
  }
}

mediaUploads();

/**
 * The appearance form's live preview: as a colour or font box changes, the sample of the site takes the value as
 * the theme's custom property, before anything is saved.
 */
function themePreview() {
  const sample = document.querySelector('[data-theme-preview] .sample');
  if (!sample) return;
  const properties = {
    'colors.primary': '--primary',
    'colors.accent': '--accent',
    'colors.background': '--background',
    'colors.text': '--text',
    'fonts.heading': '--heading-font',
    'fonts.body': '--body-font',
  };
  for (const [name, property] of Object.entries(properties)) {
    const input = document.querySelector(`[name="${name}"]`);
    if (!input) continue;
    const apply = () => {
      if (input.value) sample.style.setProperty(property, input.value);
    };
    input.addEventListener('input', apply);
    apply();
  }
}

themePreview();

/** The CSV import's file box: the chosen file's text goes into the rows box, to be checked before it is sent. */
function csvImport() {
  for (const form of document.querySelectorAll('[data-csv-import]')) {
    const file = form.querySelector('input[type="file"]');
    const box = form.querySelector('textarea[name="csv"]');
    if (!file || !box) continue;
    file.addEventListener('change', async () => {
      const chosen = file.files?.[0];
      if (chosen) box.value = await chosen.text();
    });
  }
}

csvImport();

/**
 * A cover, photo or logo form: the chosen picture is shown before it is sent; on submit the file is announced to the
 * school, sent to the upload address it answers with (a progress bar following), and the page comes back with the
 * picture in use. Without the script the same form posts the file as multipart.
 */
function imageUploads() {
  for (const form of document.querySelectorAll('form[data-image-upload]')) {
    const input = form.querySelector('input[type="file"]');
    const chosen = form.querySelector('[data-image-chosen]');
    const bar = form.querySelector('progress');
    const status = form.querySelector('[role="status"]');
    const csrf = form.querySelector('input[name="_csrf"]')?.value;
    if (!input || !bar || !status || !csrf) continue;
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      if (!chosen || !file) return;
      chosen.src = URL.createObjectURL(file);
      chosen.hidden = false;
    });
    form.addEventListener('submit', async (event) => {
      const file = input.files?.[0];
      if (!file) return;
      event.preventDefault();
      status.textContent = `Preparing ${file.name}…`;
      const start = await fetch(form.dataset.start, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _csrf: csrf,
          do: 'start',
          filename: file.name,
          content_type: file.type || 'application/octet-stream',
          byte_size: String(file.size),
        }),
        credentials: 'same-origin',
      });
      const started = await start.json().catch(() => ({}));
      if (!start.ok) {
        status.textContent = started.error_description || 'The picture was refused.';
        return;
      }
      const request = new XMLHttpRequest();
      request.open('PUT', started.upload_url);
      request.setRequestHeader('content-type', file.type || 'application/octet-stream');
      bar.hidden = false;
      request.upload.addEventListener('progress', (progress) => {
        if (progress.lengthComputable) bar.value = Math.floor((progress.loaded * 100) / progress.total);
      });
      request.addEventListener('load', () => {
        const answer = JSON.parse(request.responseText || '{}');
        if (request.status < 300) {
          status.textContent = `Uploaded ${file.name}.`;
          window.location.assign(answer.saved);
        } else status.textContent = answer.error_description || 'The upload failed.';
      });
      request.addEventListener('error', () => {
        status.textContent = 'The upload failed; check the connection and try again.';
      });
      request.send(file);
    });
  }
}

imageUploads();

/** Typing a number of days or a date picks the release it belongs to, as a person means it. */
function dripChoices() {
  for (const detail of document.querySelectorAll('[data-drip-for]')) {
    const radio = document.getElementById(detail.dataset.dripFor);
    if (!radio) continue;
    detail.addEventListener('input', () => {
      radio.checked = true;
    });
  }
}

dripChoices();

/** A link's address box is needed only for "Another address…": it is shown then, and hidden otherwise. */
function linkAddresses() {
  for (const select of document.querySelectorAll('select[data-link-goes]')) {
    const address = select.closest('.link-row')?.querySelector('.link-address');
    if (!address) continue;
    const follow = () => {
      address.hidden = select.value !== 'other' && !address.querySelector('input').value;
    };
    select.addEventListener('change', follow);
    follow();
  }
}

linkAddresses();
