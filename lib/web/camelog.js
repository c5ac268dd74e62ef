// camelog.js - libreplay in the browser: an ES module over camelog.wasm
// (make wasm), which is the library's own C compiled for wasm32-wasi.
// The API is camelog-web(7); nothing here re-implements a check, each
// call goes to the C.
//
//   import { load } from "./camelog.js";
//   const camelog = await load();            // camelog.wasm beside this file
//   const report = camelog.verify(bytes, { pubkey: "RWQ..." });
//   if (!report.valid) show(report.line, report.error);
//
// The module needs of the host only what WASI calls the code reaches:
// random_get (crypto.getRandomValues), clock_time_get (Date.now) and
// the file calls of stdio, which fail (there are no files).

const WASI_ESUCCESS = 0;
const WASI_EBADF = 8;
const WASI_ENOSYS = 52;

// The WASI imports, over the instance's memory once it exists.
function wasiImports(state) {
  const view = () => new DataView(state.memory.buffer);
  const calls = {
    random_get(ptr, len) {
      const bytes = new Uint8Array(state.memory.buffer, ptr, len);
      // getRandomValues fills at most 65536 bytes a call.
      for (let i = 0; i < len; i += 65536) {
        globalThis.crypto.getRandomValues(
          bytes.subarray(i, Math.min(len, i + 65536)));
      }
      return WASI_ESUCCESS;
    },
    clock_time_get(id, precision, out) {
      const ns = BigInt(Date.now()) * 1000000n;
      view().setBigUint64(out, ns, true);
      return WASI_ESUCCESS;
    },
    fd_write(fd, iovs, n, written) {
      // Nothing is printed: the bytes are counted as written and dropped.
      const v = view();
      let total = 0;
      for (let i = 0; i < n; i++) {
        total += v.getUint32(iovs + i * 8 + 4, true);
      }
      v.setUint32(written, total, true);
      return WASI_ESUCCESS;
    },
    fd_close() {
      return WASI_EBADF;
    },
    fd_seek() {
      return WASI_EBADF;
    },
    proc_exit(code) {
      throw new Error(`camelog.wasm exited with status ${code}`);
    },
  };
  // Any other call the code may come to make fails, as a call with no
  // file system behind it.
  return new Proxy(calls, {
    get(target, name) {
      return name in target ? target[name] : () => WASI_ENOSYS;
    },
  });
}

async function compile(source) {
  if (source instanceof WebAssembly.Module) {
    return source;
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return WebAssembly.compile(source);
  }
  const response = source instanceof Response ? source : await fetch(source);
  if (!response.ok) {
    throw new Error(`camelog.wasm: ${response.status} ${response.statusText}`);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

function b64encode(bytes) {
  let s = "";
  for (const b of bytes) {
    s += String.fromCharCode(b);
  }
  return btoa(s);
}

function hexdecode(text, n) {
  if (typeof text !== "string" || !new RegExp(`^[0-9a-fA-F]{${2 * n}}$`).test(text)) {
    throw new Error(`camelog: expected ${2 * n} hex digits`);
  }
  return Uint8Array.from(text.match(/../g), (h) => parseInt(h, 16));
}

function b64decode(text) {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

// A seat key: its 32-byte secret seed and the public key derived from
// it.  toText() is what to keep in the browser's storage (never send it).
class SeatKey {
  constructor(seed, pubkey) {
    this.seed = seed;
    this.pubkey = pubkey;
  }

  toText() {
    return `camelog-seat-key ${b64encode(this.seed)}`;
  }
}

// A log read and verified for a seat's checks (Camelog.open).
class SeatLog {
  constructor(lib, handle) {
    this.lib = lib;
    this.handle = handle;
    this.report = JSON.parse(lib.string(lib.exports.cw_log_report(handle)));
    if (this.report.usage) {
      this.close();
      throw new Error(`camelog: ${this.report.usage}`);
    }
  }

  live() {
    if (!this.handle) {
      throw new Error("camelog: the log is closed");
    }
    if (!this.report.valid) {
      throw new Error(`camelog: the log did not verify: line ${
        this.report.line}: ${this.report.error}`);
    }
    return this.handle;
  }

  checkDelivery(seat, text) {
    const h = this.live();
    return this.lib.withBytes(this.lib.encode(text, false), (p, n) =>
      this.lib.json(this.lib.exports.cw_check_delivery(h, seat, p, n)));
  }

  // With choice.action (the seat's own action in private form), the line
  // is signed only if it is that action, or, for a secret choice, if its
  // commitment under choice.label and choice.nonce (the sign request's,
  // 64 hex digits) is that of the action's value: camelog seat sign
  // --action.
  sign(seat, key, line, choice = null) {
    const h = this.live();
    const lib = this.lib;
    if (!choice || choice.action === undefined || choice.action === null) {
      return lib.withBytes(key.seed, (seed) =>
        lib.withBytes(lib.encode(line, true), (text) =>
          lib.json(lib.exports.cw_sign(h, seat, seed, text))));
    }
    const nonce = choice.nonce ? hexdecode(choice.nonce, 32) : null;
    const withNonce = (fn) => nonce ? lib.withBytes(nonce, fn) : fn(0);
    return lib.withBytes(key.seed, (seed) =>
      lib.withBytes(lib.encode(line, true), (text) =>
        lib.withBytes(lib.encode(choice.action, true), (action) =>
          lib.withBytes(lib.encode(choice.label || "", true), (label) =>
            withNonce((n) => lib.json(lib.exports.cw_sign_action(
              h, seat, seed, text, action, label, n)))))));
  }

  // Whether final (a SeatLog of the finished file) begins with every
  // line of this one, the history the seat saw: camelog seat history.
  history(final) {
    const h = this.live();
    return this.lib.json(this.lib.exports.cw_history(h, final.live()));
  }

  entropy(seat, key) {
    const h = this.live();
    return this.lib.withBytes(key.seed, (seed) =>
      this.lib.json(this.lib.exports.cw_entropy(h, seat, seed)));
  }

  // Format 2: the pledge of value (32 bytes the seat keeps), then, once
  // the log holds the sealed start, its reveal.
  pledge(seat, key, value) {
    return this.round(seat, key, value, 0);
  }

  reveal(seat, key, value) {
    return this.round(seat, key, value, 1);
  }

  round(seat, key, value, isReveal) {
    const h = this.live();
    return this.lib.withBytes(key.seed, (seed) =>
      this.lib.withBytes(value, (v) =>
        this.lib.json(this.lib.exports.cw_round(h, seat, seed, v, isReveal))));
  }

  close() {
    if (this.handle) {
      this.lib.exports.cw_log_close(this.handle);
      this.handle = 0;
    }
  }
}

class Camelog {
  constructor(instance, state) {
    this.exports = instance.exports;
    this.state = state;
  }

  bytes() {
    return new Uint8Array(this.state.memory.buffer);
  }

  encode(text, nul) {
    const b = new TextEncoder().encode(text);
    if (!nul) {
      return b;
    }
    const z = new Uint8Array(b.length + 1);
    z.set(b);
    return z;
  }

  // Copies bytes into the module's memory for the length of fn(ptr, len).
  withBytes(bytes, fn) {
    const p = this.exports.cw_alloc(bytes.length);
    if (!p) {
      throw new Error("camelog: out of memory");
    }
    try {
      this.bytes().set(bytes, p);
      return fn(p, bytes.length);
    } finally {
      this.exports.cw_free(p);
    }
  }

  // The NUL-terminated string at p (not freed).
  string(p) {
    const mem = this.bytes();
    let end = p;
    while (mem[end] !== 0) {
      end++;
    }
    return new TextDecoder().decode(mem.subarray(p, end));
  }

  // The JSON object a cw_ call returned (then freed); a "usage" object
  // (the caller's mistake) is thrown.
  json(p) {
    if (!p) {
      throw new Error("camelog: out of memory");
    }
    const text = this.string(p);
    this.exports.cw_free(p);
    const o = JSON.parse(text);
    if (o.usage) {
      throw new Error(`camelog: ${o.usage}`);
    }
    return o;
  }

  version() {
    return this.string(this.exports.cw_version());
  }

  verify(bytes, { pubkey = "", require = "in_progress" } = {}) {
    const levels = { in_progress: 0, finished: 1, complete: 2 };
    if (!(require in levels)) {
      throw new Error(`camelog: require: in_progress, finished or complete`);
    }
    return this.withBytes(bytes, (p, n) =>
      this.withBytes(this.encode(pubkey, true), (k) =>
        this.json(this.exports.cw_verify(p, n, k, levels[require]))));
  }

  open(bytes, { pubkey = "", live = false } = {}) {
    const h = this.withBytes(bytes, (p, n) =>
      this.withBytes(this.encode(pubkey, true), (k) =>
        this.exports.cw_log_open(p, n, k, live ? 1 : 0)));
    if (!h) {
      throw new Error("camelog: out of memory");
    }
    return new SeatLog(this, h);
  }

  keygen() {
    const p = this.exports.cw_alloc(32);
    try {
      const o = this.json(this.exports.cw_keygen(p));
      return new SeatKey(this.bytes().slice(p, p + 32), o.pubkey);
    } finally {
      this.bytes().fill(0, p, p + 32);
      this.exports.cw_free(p);
    }
  }

  key(seedOrText) {
    let seed = seedOrText;
    if (typeof seedOrText === "string") {
      const m = /^camelog-seat-key ([A-Za-z0-9+/=]{44})$/.exec(seedOrText);
      if (!m) {
        throw new Error("camelog: not a seat key (camelog-seat-key <base64>)");
      }
      seed = b64decode(m[1]);
    }
    if (!(seed instanceof Uint8Array) || seed.length !== 32) {
      throw new Error("camelog: a seat key's seed is 32 bytes");
    }
    const o = this.withBytes(seed, (p) =>
      this.json(this.exports.cw_key_pubkey(p)));
    return new SeatKey(Uint8Array.from(seed), o.pubkey);
  }
}

// Loads camelog.wasm: source is its URL (default: beside this module),
// a Response, its bytes or a compiled WebAssembly.Module.
export async function load(source = new URL("./camelog.wasm", import.meta.url)) {
  const module = await compile(source);
  const state = { memory: null };
  const instance = await WebAssembly.instantiate(module, {
    wasi_snapshot_preview1: wasiImports(state),
  });
  state.memory = instance.exports.memory;
  instance.exports._initialize();
  return new Camelog(instance, state);
}
