/* selfcheck.js - the end of the module script of a page made by camelog
 * html --wasm, after camelog.js (camelog-web(7)), whose load() it calls:
 * verifies the log the page carries (#camelog-log, base64) with the
 * WebAssembly verifier it carries (#camelog-wasm), the dealer key pinned
 * when the page was made with --pubkey (#camelog-pin), and shows the
 * verdict it computed at the top of the page (#camelog-selfcheck, whose
 * data-valid is "true" or "false" once done, data-summary the text of
 * camelog verify, data-line and data-error a failure's, data-ms the
 * time verify took).  It never reads the
 * verdict written in the page's data. */
(async function selfcheck() {
  var box = document.createElement('div');
  box.id = 'camelog-selfcheck';
  box.setAttribute('role', 'status');
  box.style.cssText = 'font:14px/1.4 system-ui,sans-serif;padding:8px 12px;' +
    'margin:0;border-bottom:3px solid #888;background:#eee;color:#111';
  box.textContent = 'Checking this log in the browser\u2026';
  document.body.insertBefore(box, document.body.firstChild);

  function bytes(id) {
    var s = atob(document.getElementById(id).textContent.trim());
    var b = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) {
      b[i] = s.charCodeAt(i);
    }
    return b;
  }

  function show(valid, head, text) {
    box.dataset.valid = valid ? 'true' : 'false';
    box.style.borderBottomColor = valid ? '#1a7f37' : '#b00020';
    box.style.background = valid ? '#e6f4ea' : '#fde7e9';
    box.textContent = '';
    var b = document.createElement('strong');
    b.textContent = head;
    box.appendChild(b);
    box.appendChild(document.createTextNode(' ' + text));
  }

  try {
    var pin = JSON.parse(document.getElementById('camelog-pin').textContent);
    var lib = await load(bytes('camelog-wasm'));
    var log = bytes('camelog-log');
    var t0 = performance.now();
    var r = lib.verify(log, { pubkey: pin });
    box.dataset.ms = String(performance.now() - t0);
    box.dataset.summary = r.summary;
    if (r.valid) {
      show(true, '\u2713 Verified in this browser:', r.summary +
        (r.key_pinned ? '; dealer key pinned' :
          '; dealer key as named in the file') + ' (libreplay ' +
        lib.version() + ', WebAssembly)');
    } else {
      box.dataset.line = String(r.line);
      box.dataset.error = r.error;
      show(false, '\u2717 FAILED in this browser:', 'line ' + r.line + ': ' +
        r.error + ' \u2014 do not trust what this page shows.');
    }
  } catch (e) {
    box.dataset.error = String(e && e.message || e);
    show(false, '\u2717 Could not check this log in the browser:',
      box.dataset.error);
  }
})();
