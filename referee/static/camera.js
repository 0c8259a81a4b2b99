// Live camera preview for the scan buttons, where the browser allows it (HTTPS, or localhost).
// Over plain HTTP on the LAN phones keep the file input, which opens the camera app instead.
// A captured frame is handed to the scan form's file input, and htmx uploads it as for a photo.
// Either way the photo is scaled to at most MAX_SIDE pixels (long side) and sent as a JPEG: a
// phone's own 12-megapixel photo (3-5 MB) would take seconds over Wi-Fi and is read at that size
// anyway. Where the browser cannot scale it, the photo goes as it is (the server accepts it).
(function () {
  "use strict";

  var MAX_SIDE = 1600;
  var QUALITY = 0.85;

  // Draw a decoded image (an <img>, an ImageBitmap or a <video>) at most MAX_SIDE long on a canvas.
  function scaledCanvas(source, width, height) {
    var scale = Math.min(1, MAX_SIDE / Math.max(width, height));
    var canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    canvas.getContext("2d").drawImage(source, 0, 0, canvas.width, canvas.height);
    return canvas;
  }

  // Let htmx upload the photo in the file input (the "change" htmx listens for). A live update may have
  // taken the scan form off the screen meanwhile, to put it back (static/screen.js): htmx sends nothing
  // from a form that is not on the page, so the upload waits until it is back; a form whose entry can no
  // longer be made (data-dropped; the player has been told) sends nothing.
  function upload(input, waited) {
    var form = input.form;
    if (form && form.dataset.dropped) { delete form.dataset.reading; return; }
    if (!input.isConnected && (waited || 0) < 15000) {
      setTimeout(function () { upload(input, (waited || 0) + 50); }, 50);
      return;
    }
    input.dataset.scaled = "1";
    input.dispatchEvent(new Event("change", { bubbles: true }));
    delete input.dataset.scaled;
  }

  // Put a JPEG blob in the file input and upload it.
  function sendBlob(input, blob, name) {
    var files = new DataTransfer();
    files.items.add(new File([blob], name, { type: "image/jpeg" }));
    input.files = files.files;
    upload(input);
  }

  // A photo chosen with the file input (the camera app): decoded by the browser (which turns it
  // upright by its EXIF orientation), scaled and re-encoded before upload.
  function scalePhoto(input) {
    var file = input.files && input.files[0];
    var pass = function () { upload(input); };
    if (!file || !window.DataTransfer || !HTMLCanvasElement.prototype.toBlob) { pass(); return; }
    var url = URL.createObjectURL(file);
    var img = new Image();
    img.onload = function () {
      URL.revokeObjectURL(url);
      var w = img.naturalWidth, h = img.naturalHeight;
      if (Math.max(w, h) <= MAX_SIDE && file.type === "image/jpeg") { pass(); return; }  // already small
      try {
        scaledCanvas(img, w, h).toBlob(function (blob) {
          if (blob) { sendBlob(input, blob, "photo.jpg"); } else { pass(); }
        }, "image/jpeg", QUALITY);
      } catch (err) { pass(); }
    };
    img.onerror = function () { URL.revokeObjectURL(url); pass(); };  // let the server say what is wrong
    img.src = url;
  }

  // Runs before htmx sees the change: the upload waits until the photo is scaled.
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input || input.type !== "file" || !input.closest || !input.closest(".scan-form")) { return; }
    if (input.dataset.scaled) { return; }  // the scaled photo: htmx uploads it
    event.stopImmediatePropagation();
    if (input.form) { input.form.dataset.reading = "1"; }  // a photo is on its way (until read: screen.js)
    scalePhoto(input);
  }, true);

  function canPreview() {
    return window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia;
  }

  function closePreview(box, stream) {
    if (stream) { stream.getTracks().forEach(function (t) { t.stop(); }); }
    box.remove();
  }

  // The page's words (templates/base.html, #camera-words), in its language; English where missing.
  function words(key, english) {
    var box = document.getElementById("camera-words");
    return (box && box.dataset[key]) || english;
  }

  var REASONS = {
    NotAllowedError: ["notAllowed", "the browser was not allowed to use the camera"],
    SecurityError: ["notAllowed", "the browser was not allowed to use the camera"],
    NotFoundError: ["notFound", "no camera was found"],
    OverconstrainedError: ["notFound", "no camera was found"],
    NotReadableError: ["busy", "another app is using the camera"],
    AbortError: ["stopped", "the camera stopped"]
  };

  // After a camera error: say so in words, and offer the phone's camera app (the file input).
  function showError(box, input, stream, err) {
    box.classList.add("camera-failed");
    box.querySelectorAll("video, .camera-take").forEach(function (el) { el.remove(); });
    var status = box.querySelector(".camera-status");
    status.setAttribute("role", "alert");
    var reason = REASONS[err && err.name] || ["unavailable", "the camera is not available"];
    status.textContent = words("failed", "The live camera could not start: %s. Take the photo with your phone’s camera app instead.")
      .replace("%s", words(reason[0], reason[1]));
    var app = document.createElement("button");
    app.type = "button";
    app.className = "big camera-app";
    app.textContent = words("app", "Open the camera app");
    app.addEventListener("click", function () { closePreview(box, stream); input.click(); });
    box.insertBefore(app, box.querySelector(".camera-cancel"));
  }

  function openPreview(form) {
    var input = form.querySelector("input[type=file]");
    var box = document.createElement("div");
    box.className = "camera";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", words("camera", "Camera"));
    var video = document.createElement("video");
    video.setAttribute("playsinline", "");
    video.muted = true;
    var take = document.createElement("button");
    take.type = "button";
    take.className = "big camera-take";
    take.textContent = words("take", "Take photo");
    var cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "secondary camera-cancel";
    cancel.textContent = words("cancel", "Cancel");
    var status = document.createElement("p");
    status.className = "muted camera-status";
    box.append(video, take, cancel, status);
    form.after(box);
    var stream = null;
    cancel.addEventListener("click", function () { closePreview(box, stream); });
    navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 1600 } }, audio: false })
      .then(function (s) { stream = s; video.srcObject = s; return video.play(); })
      .catch(function (err) { showError(box, input, stream, err); });
    take.addEventListener("click", function () {
      if (!video.videoWidth) { return; }
      var canvas = scaledCanvas(video, video.videoWidth, video.videoHeight);
      canvas.toBlob(function (blob) {
        closePreview(box, stream);
        sendBlob(input, blob, "camera.jpg");
      }, "image/jpeg", QUALITY);
    });
  }

  function addButtons(root) {
    if (!canPreview()) { return; }
    root.querySelectorAll(".scan-form").forEach(function (form) {
      if (form.querySelector(".camera-open")) { return; }
      var open = document.createElement("button");
      open.type = "button";
      open.className = "secondary camera-open";
      open.textContent = words("live", "Live camera");
      open.addEventListener("click", function () { openPreview(form); });
      form.append(open);
    });
  }

  // The card chosen in a reveal's field ``name`` (a grid of chips, or a <select>), as its words; null for
  // none chosen or "Not recorded".
  function chosen(form, name) {
    var field = form.elements.namedItem(name);
    if (!field) { return null; }
    if (field.tagName === "SELECT") {
      var option = field.selectedOptions[0];
      return option && field.value && field.value !== "unknown" ? option.textContent.trim() : null;
    }
    var picked = form.querySelector('input[name="' + name + '"]:checked');
    return picked && picked.value !== "unknown" ? picked.parentElement.textContent.trim() : null;
  }

  // A reveal filled by a scan: its one confirm button names the cards chosen, place by place (its fields
  // card1, card2…: chips or a <select> each, as many as the player's row holds).
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest(".scan-reveal-form");
    var button = form && form.querySelector(".confirm-reveal");
    if (!button) { return; }
    var names = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (/^card[0-9]+$/.test(el.name) && names.indexOf(el.name) < 0) { names.push(el.name); }
    });
    button.textContent = (form.dataset.revealWords || "Reveal " + form.dataset.revealFor) + ":";
    names.forEach(function (name) {
      var picked = chosen(form, name);
      button.append(" ");
      if (picked) {
        button.append(picked);
        return;
      }
      // not picked yet: "?" on the screen, "unknown card" to a screen reader (as the server writes it)
      var shown = document.createElement("span"), said = document.createElement("span");
      shown.setAttribute("aria-hidden", "true");
      shown.textContent = "?";
      said.className = "visually-hidden";
      said.textContent = form.dataset.unknownWords || "unknown card";
      button.append(shown, said);
    });
  });

  // A row read from a photo taken from across the table lies the other way round: "Reverse the order"
  // swaps the first place's card with the last's, and so on (each field a grid of chips or a <select>;
  // a place not read stays not read, now at the other end). Each field changed is said changed, so the
  // confirm button's words follow and a redrawn screen keeps the new order.
  function fieldValue(form, name) {
    var field = form.elements.namedItem(name);
    if (field && field.tagName === "SELECT") { return field.value; }
    var picked = form.querySelector('input[name="' + name + '"]:checked');
    return picked ? picked.value : null;
  }

  function setField(form, name, value) {
    var field = form.elements.namedItem(name);
    if (field && field.tagName === "SELECT") {
      field.value = value === null ? "" : value;
      field.dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    form.querySelectorAll('input[name="' + name + '"]').forEach(function (chip) {
      var now = value !== null && chip.value === value;
      if (chip.checked !== now || now) {
        chip.checked = now;
        chip.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  }

  function reverseRow(form) {
    var names = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (/^card[0-9]+$/.test(el.name) && names.indexOf(el.name) < 0) { names.push(el.name); }
    });
    var values = names.map(function (name) { return fieldValue(form, name); }).reverse();
    names.forEach(function (name, i) { setField(form, name, values[i]); });
    // each place's note ("not read", "the photo says ...") for the row as it now lies: drawn for both orders
    form.querySelectorAll(".place-note").forEach(function (note) { note.hidden = !note.hidden; });
    form.querySelectorAll(".card-pick, .reveal-slot").forEach(function (place) {
      place.classList.toggle("not-found", !!place.querySelector(".place-note.missing:not([hidden])"));
    });
    // the note "placed from the photo's right" no longer holds once turned round (and holds again after)
    var box = form.closest(".scan-reveal"), note = box && box.querySelector(".scan-row-turned");
    if (note) { note.hidden = !note.hidden; }
    // said to a screen reader: the new order, as the confirm button now names it
    var region = document.getElementById("announcer"), button = form.querySelector(".confirm-reveal");
    if (region && button) { region.textContent = button.textContent.replace(/\s+/g, " ").trim(); }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-reverse-row]");
    if (button && button.form) { reverseRow(button.form); }
  });

  function showReverse(root) {
    root.querySelectorAll("[data-reverse-row]").forEach(function (button) { button.hidden = false; });
  }

  function enhance(root) { addButtons(root); showReverse(root); }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:afterSettle", function (event) { enhance(event.target); });
  // a scan box put back by screen.js after a reload comes without its button (its listener is not kept)
  document.addEventListener("referee:putback", function (event) { enhance(event.target); });
})();
