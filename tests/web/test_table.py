#!/usr/bin/env python3
"""test_table.py - five browser seats play Avalon through examples/web
against a real `camelog host` on loopback, in headless Chromium (one
driver, one window a seat), every move a click on the seat's own page.

  honest    the whole game; every page checks every delivery, signs its
            own clicks and ends with the finished file verified in the
            page, which is the history it was shown; the file passes
            camelog verify --require complete,reveal,entropy,signatures
            with each seat's key pinned to the one its page made (so
            every seat's line carries that page's signature), and the
            page's verdict is camelog verify's.
  delivery  the bridge, as the dealer (the test's dealer-forge signs
            with its key), tells p1 another role than it committed to:
            p1's page shows the red banner with the message camelog seat
            check gives for that delivery against what p1 had seen (the
            commitment); the other pages play on.  Then the same with
            the value changed on the way, under the dealer's signature
            (the signature fails).
  flip      a seat that may play Fail clicks Success and the bridge
            submits Fail: that page refuses to sign, with the library's
            message, and the game goes no further.
  fork      the seat after the first leader is shown another deal line,
            sealed again with the dealer's key: its history parts from
            the other seats' at that line, and its page fails at the first
            seat signature over the real history, with the message camelog
            verify --live gives for that history.
The banners' texts are compared with the C tools' whole.  Screenshots
(mid-game, and the banner) go to $ARTIFACTS.

Environment: CAMELOG (the binary), WASM_DIR (make wasm's directory),
DEALER_FORGE (build/tests/dealer-forge), ARTIFACTS.  Without BROWSER_REQUIRED a missing browser skips the test.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAMELOG = os.environ.get("CAMELOG", os.path.join(ROOT, "build", "camelog"))
WASM_DIR = os.environ.get("WASM_DIR", os.path.join(ROOT, "build", "wasm"))
ARTIFACTS = os.environ.get("ARTIFACTS", os.path.join(ROOT, "build", "artifacts"))
BRIDGE = os.path.join(ROOT, "examples", "web", "bridge.py")
FORGE = os.environ.get("DEALER_FORGE", os.path.join(ROOT, "build", "tests",
                                                    "dealer-forge"))
EVIL = ("assassin", "minion", "morgana", "mordred", "oberon")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("table: FAIL: " + what, file=sys.stderr)
    return cond


def skip(why):
    if os.environ.get("BROWSER_REQUIRED"):
        print("table: FAIL: " + why, file=sys.stderr)
        sys.exit(1)
    print("table: SKIPPED: " + why)
    sys.exit(0)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.common.exceptions import WebDriverException
except ImportError:
    skip("no python3 selenium module")

CHROMEDRIVER = shutil.which("chromedriver")
if not CHROMEDRIVER or not (shutil.which("chromium") or shutil.which("chromium-browser")):
    skip("no chromium or chromedriver")


def camelog(*args):
    return subprocess.run([CAMELOG, *args], capture_output=True, text=True)


# What one call reads of a page.
PEEK = """
const b = document.body, role = document.getElementById('role');
return {state: b.dataset.state, role: role.dataset.role || null,
        actions: document.getElementById('propose') ?
                 (document.getElementById('propose').dataset.action ? [] :
                  ['propose p' + arguments[0] + ' ' +
                   document.getElementById('propose').textContent
                   .match(/of (\d+)/)[1]]) :
                 [...document.querySelectorAll('#actions button:enabled')]
                 .map((x) => x.dataset.action),
        what: document.getElementById('banner-what').textContent,
        message: document.getElementById('banner-message').textContent,
        final: document.getElementById('checks').dataset.final || null,
        checks: document.getElementById('checks').textContent,
        history: localStorage.getItem('camelog-table/p' + arguments[0] +
                                      '/history') || '',
        key: localStorage.getItem('camelog-table/p' + arguments[0] + '/key')};
"""


class Table:
    """A bridge, and five windows of the driver, one a seat."""

    def __init__(self, driver, windows, lie=None, more=()):
        self.driver = driver
        self.windows = windows
        self.dir = tempfile.mkdtemp(prefix="camelog-table-test.")
        args = [sys.executable, BRIDGE, "--camelog", CAMELOG, "--wasm", WASM_DIR,
                "--port", "0", "--dir", self.dir]
        if lie:
            args.append("--lie=" + lie)
        args += more
        self.err = open(os.path.join(self.dir, "bridge.err"), "w")
        self.p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.err,
                                  text=True)
        head = self.p.stdout.readline()
        check(head.startswith("bridge: open one page a seat"), "bridge: " + head)
        self.urls = [self.p.stdout.readline().strip() for _ in range(5)]
        for k, w in enumerate(windows):
            driver.switch_to.window(w)
            driver.get(self.urls[k])
        self.roles = {}
        self.seen = {}

    def peek(self, k):
        self.driver.switch_to.window(self.windows[k - 1])
        o = self.driver.execute_script(PEEK, k)
        if o["role"]:
            self.roles[k] = o["role"]
        return o

    def click(self, k, action):
        self.driver.switch_to.window(self.windows[k - 1])
        if action.startswith("propose "):
            for seat in action.split()[2].split(","):
                self.driver.find_element(
                    By.CSS_SELECTOR, 'button[data-seat="%s"]' % seat).click()
            self.driver.find_element(By.ID, "propose").click()
            return
        self.driver.find_element(
            By.CSS_SELECTOR, 'button[data-action="%s"]' % action).click()

    def choose(self, k, actions, evil_on_team):
        """The players' policy: the leader takes itself and, if asked, a
        seat known to be evil (the test reads every page, and waits
        until every page shows its role); everybody
        approves; every card is Success; the Assassin names Merlin."""
        a = actions[0]
        if a.startswith("propose "):
            # "propose pK N": the page asks for N seats.
            size = int(a.split()[2])
            if evil_on_team and len(self.roles) < 5:
                # A page has not shown its role yet: wait for it, so
                # that the first team holds the evil seat it asks for.
                return None
            team = [k]
            if evil_on_team and self.roles.get(k) not in EVIL:
                team += [j for j in range(1, 6) if self.roles.get(j) in EVIL][:1]
            team += [j for j in range(1, 6) if j not in team]
            team = sorted(team[:size])
            return "propose p%d %s" % (k, ",".join("p%d" % j for j in team))
        if a.startswith("assassinate "):
            merlin = [t for t, r in self.roles.items() if r == "merlin"]
            want = [x for x in actions if merlin and x.endswith(" p%d" % merlin[0])]
            return (want or actions)[0]
        for end in (" yes", " success"):
            for x in actions:
                if x.endswith(end):
                    return x
        return a

    def play(self, until, evil_on_team=False, seconds=40, shot=None):
        """Clicks, seat after seat, until until(table, pages) is true."""
        t0 = time.monotonic()
        moves = 0
        while time.monotonic() - t0 < seconds:
            pages = {k: self.peek(k) for k in range(1, 6)}
            if until(self, pages):
                return pages, moves
            clicked = False
            for k, o in pages.items():
                if o["state"] == "failed" or not o["actions"]:
                    continue
                action = self.choose(k, o["actions"], evil_on_team)
                if action is None:
                    continue
                try:
                    self.click(k, action)
                except WebDriverException:
                    # The page drew its turn again between the look and
                    # the click: look again.
                    continue
                moves += 1
                clicked = True
                if shot and moves == shot[0]:
                    time.sleep(0.3)
                    self.driver.save_screenshot(shot[1])
            if not clicked:
                time.sleep(0.05)
        return {k: self.peek(k) for k in range(1, 6)}, moves

    def lie(self):
        path = os.path.join(self.dir, "lie.json")
        if not os.path.exists(path):
            return None
        with open(path) as f:
            return json.load(f)

    def close(self):
        self.p.terminate()
        self.p.wait()
        self.err.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def failed(k):
    return lambda t, pages: pages[k]["state"] == "failed"


def pubkey_of(table, k):
    """The public key of the seat key the page keeps, from its line in
    the header the page was shown."""
    for ln in table.peek(k)["history"].split("\n"):
        m = re.match(r'seat p%d "[^"]*" key=(\S+)$' % k, ln)
        if m:
            return m.group(1)
    return None


def honest(driver, windows):
    t = Table(driver, windows)
    t0 = time.monotonic()
    pages, moves = t.play(lambda t, p: all(o["state"] in ("done", "failed")
                                           for o in p.values()),
                          seconds=45,
                          shot=(9, os.path.join(ARTIFACTS, "table-mid-game.png")))
    secs = time.monotonic() - t0
    for k, o in pages.items():
        check(o["state"] == "done", "honest: p%d: %s %s %s" % (k, o["state"],
                                                               o["what"], o["message"]))
    final = os.path.join(t.dir, "game.camelog")
    if not check(os.path.exists(final), "honest: no finished file"):
        t.close()
        return
    pins = []
    for k in range(1, 6):
        pub = pubkey_of(t, k)
        # The key in the page's storage is the one in the header.
        check(pub and t.peek(k)["key"], "honest: p%d: no key kept" % k)
        pins += ["--seat-key", "p%d=%s" % (k, pub)]
    pub = os.path.join(t.dir, "dealer.pub")
    v = camelog("verify", "-q", "--pubkey", pub, *pins,
                "--require", "complete,reveal,entropy,signatures", final)
    check(v.returncode == 0, "honest: verify --require: %s %s" % (v.stdout, v.stderr))
    summary = v.stdout.split("\n")[0][len(final) + 2:]
    for k, o in pages.items():
        check(o["final"] == summary, "honest: p%d verdict %r, camelog verify %r"
              % (k, o["final"], summary))
        # What the page was shown is the finished file's beginning.
        r = camelog("seat", "history", "--pubkey", pub, "--seat-key",
                    pubkey_of(t, k), write(t.dir, "p%d.seen" % k, o["history"]),
                    final)
        check(r.returncode == 0, "honest: p%d: seat history: %s" % (k, r.stderr))
    sigs = re.search(r"(\d+) sigs", summary)
    print("table: honest: %d clicks, %s in %.1f s; every page: %s"
          % (moves, summary, secs, pages[1]["checks"]))
    check(sigs and int(sigs.group(1)) >= moves, "honest: %s sigs for %d clicks"
          % (sigs and sigs.group(1), moves))
    t.close()


def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def lie_delivery(driver, windows, forge=True):
    t = Table(driver, windows, "delivery", ["--forge", FORGE] if forge else [])
    pages, _ = t.play(failed(1), seconds=20)
    lie = t.lie()
    o = pages[1]
    if check(lie and o["state"] == "failed", "delivery: p1 not failed: %r" % o):
        seen = write(t.dir, "seen.txt", "".join(x + "\n" for x in lie["seen"]))
        dl = write(t.dir, "d.jsonl", json.dumps(lie["delivery"],
                                                separators=(",", ":")) + "\n")
        c = camelog("seat", "check", "--json", "--pubkey",
                    os.path.join(t.dir, "dealer.pub"), "--as", "p1", seen, dl)
        cj = json.loads(c.stdout.split("\n")[0])
        check(not cj["valid"] and o["message"] == cj["error"],
              "delivery: page %r, seat check %r" % (o["message"], cj))
        # Signed by the dealer, the lie fails on the commitment; changed
        # on the way, on the dealer's signature.
        check(lie["signed"] == forge and
              ("does not verify" in cj["error"]) != forge,
              "delivery: signed %s: %r" % (lie["signed"], cj["error"]))
        print("table: delivery (%s): p1's page: %s %s"
              % ("the dealer's lie" if forge else "changed on the way",
                 o["what"], o["message"]))
        if forge:
            driver.switch_to.window(windows[0])
            driver.save_screenshot(os.path.join(ARTIFACTS, "table-banner.png"))
        check(o["role"] is None, "delivery: p1's page shows a role: %r" % o["role"])
    for k in range(2, 6):
        check(pages[k]["state"] == "playing" and pages[k]["role"],
              "delivery: p%d: %r" % (k, pages[k]["state"]))
    t.close()


def lie_flip(driver, windows):
    t = Table(driver, windows, "flip")
    pages, _ = t.play(lambda t, p: any(o["state"] == "failed" for o in p.values()),
                      evil_on_team=True, seconds=25)
    lie = t.lie()
    if check(lie, "flip: the bridge never flipped a card"):
        k = lie["seat"]
        o = pages[k]
        want = ('the line commits to something other than p%d\'s choice '
                '"success" ("card 1 p%d"): not signed' % (k, k))
        check(o["state"] == "failed" and o["message"] == want,
              "flip: p%d: %r, want %r" % (k, o["message"], want))
        check(lie["clicked"] == "card p%d success" % k and
              lie["sent"] == "card p%d fail" % k, "flip: %r" % lie)
        others = [j for j in pages if j != k and pages[j]["state"] == "failed"]
        check(not others, "flip: other pages failed: %r" % others)
        print("table: flip: p%d's page: %s %s" % (k, o["what"], o["message"]))
    t.close()


def lie_fork(driver, windows):
    t = Table(driver, windows, "fork")
    pages, _ = t.play(lambda t, p: any(o["state"] == "failed" for o in p.values()),
                      seconds=25)
    lie = t.lie()
    if check(lie, "fork: the bridge never forked"):
        k = lie["seat"]
        o = pages[k]
        other = 1 if k != 1 else 2
        mine = o["history"].split("\n")
        theirs = pages[other]["history"].split("\n")
        part = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), None)
        others = [j for j in pages if j != k and pages[j]["state"] == "failed"]
        check(not others, "fork: other pages failed: %r" % others)
        check(part is not None and mine[part] == lie["line"],
              "fork: p%d and p%d were shown the same lines" % (k, other))
        seen = write(t.dir, "forked.txt", o["history"])
        c = camelog("verify", "--json", "-q", "--live", "--pubkey",
                    os.path.join(t.dir, "dealer.pub"), seen)
        cj = json.loads(c.stdout)
        check(o["state"] == "failed" and not cj["valid"] and
              o["message"] == cj["error"] and
              ("at line %d." % cj["line"]) in o["what"],
              "fork: p%d: page %r %r, verify %r" % (k, o["what"], o["message"], cj))
        # The forked history verifies up to the seal after the parting
        # line: the dealer's key sealed the fork.
        end = next((i for i in range(part or 0, len(mine))
                    if mine[i].startswith("seal ")), None)
        if check(end is not None, "fork: no seal after the parting line"):
            prefix = write(t.dir, "prefix.txt", "\n".join(mine[:end + 1]) + "\n")
            cp = camelog("verify", "-q", "--pubkey",
                         os.path.join(t.dir, "dealer.pub"), prefix)
            check(cp.returncode == 0, "fork: the sealed fork: %s %s"
                  % (cp.stdout, cp.stderr))
        print("table: fork: p%d shown line %d %r; p%d's page: %s %s"
              % (k, part + 1, lie["line"][:20] + "...", k, o["what"], o["message"]))
    t.close()


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)
    opts = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--window-size=1100,900", "--no-first-run",
              "--disable-extensions", "--disable-background-timer-throttling",
              "--disable-renderer-backgrounding",
              "--disable-backgrounding-occluded-windows"):
        opts.add_argument(a)
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    except Exception as e:
        skip("chromium does not start: %s" % str(e).splitlines()[0])
    driver.set_page_load_timeout(30)
    t0 = time.monotonic()
    try:
        windows = [driver.current_window_handle]
        for _ in range(4):
            driver.switch_to.new_window("window")
            windows.append(driver.current_window_handle)
        for name, fn in (("honest", honest), ("delivery", lie_delivery),
                         ("delivery-unsigned",
                          lambda d, w: lie_delivery(d, w, forge=False)),
                         ("flip", lie_flip), ("fork", lie_fork)):
            if len(sys.argv) > 1 and name not in sys.argv[1:]:
                continue
            fn(driver, windows)
    finally:
        driver.quit()
    if failures:
        print("table: %d failures" % len(failures), file=sys.stderr)
        sys.exit(1)
    print("table: five browser seats played and caught every lie in %.1f s"
          % (time.monotonic() - t0))


main()
