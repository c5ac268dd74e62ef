# html --wasm: what the page carries to verify itself (the log's bytes,
# the module, the pinned key, a CSP that allows WebAssembly), and the
# refusals.  A stand-in module is enough here: tests/web runs the real
# one in a browser.
cp "$SAMPLES"/avalon-5.camelog "$SAMPLES"/dealer.pub .
mkdir wasm bad nojs
printf '\000asm\001\000\000\000' >wasm/camelog.wasm
printf 'export async function load() {}\n' >wasm/camelog.js
printf 'not a module' >bad/camelog.wasm
cp wasm/camelog.js bad/
cp wasm/camelog.wasm nojs/
printf 'const s = "</script>";\n' >nojs/camelog.js
echo "== a page that verifies itself"
camelog html --wasm wasm -o a.html avalon-5.camelog
echo "exit $?"
grep -c "script-src 'unsafe-inline' 'wasm-unsafe-eval'" a.html
grep -c '<script type="application/json" id="camelog-pin">""</script>' a.html
grep -c '<script type="module">' a.html
# the log it carries is the file, byte for byte
sed -n 's|^<script type="application/octet-stream" id="camelog-log">\(.*\)</script>$|\1|p' \
    a.html | base64 -d | cmp - avalon-5.camelog && echo "the log's bytes"
sed -n 's|^<script type="application/octet-stream" id="camelog-wasm">\(.*\)</script>$|\1|p' \
    a.html | base64 -d | cmp - wasm/camelog.wasm && echo "the module's bytes"
camelog html --wasm wasm -o - avalon-5.camelog | cmp - a.html && echo "same bytes"
echo "== pinned"
camelog html --wasm wasm --pubkey dealer.pub -o b.html avalon-5.camelog
echo "exit $?"
grep -o '<script type="application/json" id="camelog-pin">"RW[^"]*"</script>' b.html |
    grep -c "$(tail -n 1 dealer.pub)"
echo "== without --wasm, none of it"
camelog html -o c.html avalon-5.camelog
grep -c 'wasm-unsafe-eval\|camelog-log\|camelog-pin' c.html
echo "== refusals"
camelog html --wasm wasm --as p1 -o x.html avalon-5.camelog
echo "exit $?"
camelog html --wasm wasm -o x.html - <avalon-5.camelog
echo "exit $?"
camelog html --wasm missing -o x.html avalon-5.camelog
echo "exit $?"
camelog html --wasm bad -o x.html avalon-5.camelog
echo "exit $?"
camelog html --wasm nojs -o x.html avalon-5.camelog
echo "exit $?"
ls x.html 2>/dev/null || echo "no page written"
