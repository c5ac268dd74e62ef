# camelog - one GNU Makefile: build, test, install, demo.
#
#   make                 libreplay.a, libreplay.so.0 and camelog in build/
#   make demo            record, verify, replay and reveal a seeded game
#   make check           every test; ends with Check's summary line
#   make sanitize        the same tests, ASan + UBSan, in build-san/
#   make valgrind        the CLI tests with every camelog run under valgrind
#   make install         PREFIX=/usr/local DESTDIR= (also BINDIR LIBDIR ...)
#   make deps            install what make check needs (deps/; as root)
#   make deps-build      install what make and make demo need
#   make fresh           make demo and make check in a bare Debian 12 root
#   make format          clang-format -i; format-check for CI
#
# Plain variables; packagers may override any of them (make WERROR= ...).

PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
PKG_CONFIG ?= pkg-config
CC         ?= cc
# clang-format 14 is the version .clang-format is written for.
CLANG_FORMAT ?= $(shell command -v clang-format-14 2>/dev/null || echo clang-format)

# The release comes from the header, so the two cannot drift apart;
# SOVERSION changes only when the ABI breaks.
VERSION    := $(shell sed -n \
    's/^\#define[[:space:]]*RPL_VERSION[[:space:]]*"\([^"]*\)".*/\1/p' \
    libreplay/replay.h)
ifeq ($(VERSION),)
$(error cannot read RPL_VERSION from libreplay/replay.h)
endif
SOVERSION  := 0

WERROR     ?= -Werror
WARNINGS   := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
              -Wmissing-prototypes -Wformat=2 -Wvla -Wwrite-strings \
              -Wcast-qual -Wswitch-enum $(WERROR)
CFLAGS     ?= -O2 -g
CPPFLAGS   ?=
LDFLAGS    ?=
SANITIZE   ?=
# VALGRIND=1 runs every camelog of the CLI tests under valgrind.
VALGRIND   ?=

# pkg-config names of the libraries we link and of Check.  The Debian
# packages that provide them and the programs the tests use are kept in
# the lists of deps/, one per purpose, read by deps/install.sh alone
# (here and in .ci/run).
DEPS_PKGS  := sqlite3 libpq zlib libsodium jansson
TEST_PKGS  := check
DEPS_SH    := sh deps/install.sh
# Sanitized objects never mix with plain ones: they get their own tree.
B          := $(if $(SANITIZE),build-san,build)

# These goals compute no compiler flags: deps must be able to run before
# the libraries exist, and the test and demo goals run deps and then a
# second make, which asks pkg-config once the packages are there.
NOFLAG_GOALS := deps deps-build clean format format-check check demo \
                sanitize valgrind bench fuzz uninstall fresh
ifneq ($(filter-out $(NOFLAG_GOALS),$(or $(MAKECMDGOALS),all)),)
ifneq ($(shell $(PKG_CONFIG) --exists $(DEPS_PKGS) 2>/dev/null && echo ok),ok)
$(error missing libraries (pkg-config $(DEPS_PKGS)): run 'make deps-build', \
  which installs them as root and otherwise prints the apt-get line)
endif
DEP_CFLAGS   := $(shell $(PKG_CONFIG) --cflags $(DEPS_PKGS))
DEP_LIBS     := $(shell $(PKG_CONFIG) --libs $(DEPS_PKGS)) -lm
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(TEST_PKGS) 2>/dev/null)
CHECK_LIBS   := $(shell $(PKG_CONFIG) --libs $(TEST_PKGS) 2>/dev/null)
endif

SAN_FLAGS  := $(if $(SANITIZE),-fsanitize=$(SANITIZE) \
              -fno-sanitize-recover=all -fno-omit-frame-pointer)
ALL_CFLAGS := -std=c11 $(WARNINGS) $(CFLAGS) $(SAN_FLAGS)
ALL_CPPFLAGS := -D_POSIX_C_SOURCE=200809L -iquote libreplay -iquote $(B) $(CPPFLAGS) \
                $(DEP_CFLAGS)
ALL_LDFLAGS := $(LDFLAGS) $(SAN_FLAGS)
# The tools run jobs on POSIX threads (tools/pool.c); the library has none.
TOOL_THREADS := -pthread
# The tools see the public header only, as an installed user does: their
# include directory holds nothing but a copy of replay.h, so internal.h
# is out of their reach.
PUB_INC    := $(B)/include
TOOL_CPPFLAGS := -D_POSIX_C_SOURCE=200809L -iquote $(PUB_INC) $(CPPFLAGS) \
                 $(DEP_CFLAGS)

LIB_SRC  := $(sort $(wildcard libreplay/*.c libreplay/archive/*.c libreplay/tlog/*.c \
            libreplay/games/*.c libreplay/games/*/*.c))
TOOL_SRC := $(sort $(wildcard tools/*.c))
TEST_SRC := $(sort $(wildcard tests/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/%.o)
TOOL_OBJ := $(TOOL_SRC:%.c=$(B)/%.o) $(B)/tools/html_assets.o
TEST_OBJ := $(TEST_SRC:%.c=$(B)/%.o)

# The registry names no game: registry.c includes games.h, an X-macro
# list RPL__GAME(folder) of the folders of libreplay/games/ with a
# module.c (each defines rpl__<folder>).  The file is rewritten only
# when the list changes, so registry.o is rebuilt only then.
GAMES      := $(patsubst libreplay/games/%/module.c,%, \
              $(sort $(wildcard libreplay/games/*/module.c)))
TEST_GAMES := $(patsubst tests/games/%/module.c,%, \
              $(sort $(wildcard tests/games/*/module.c)))

TEST_GAME_SRC := $(sort $(wildcard tests/games/*/*.c))
TEST_GAME_OBJ := $(TEST_GAME_SRC:%.c=$(B)/%.o)
TEST_LIB_OBJ  := $(filter-out $(B)/libreplay/games/registry.o,$(LIB_OBJ)) \
                 $(B)/tests/registry.o $(TEST_GAME_OBJ)
TEST_BINS     := $(B)/tests/camelog-games $(B)/tests/games-record \
                 $(B)/tests/dealer-forge


LIB_A    := $(B)/libreplay.a
LIB_SO   := $(B)/libreplay.so.$(SOVERSION)
CAMELOG  := $(B)/camelog
TESTRUN  := $(B)/tests/run

# Go's reading of our tlog directories (tests/tlog_interop/main.go),
# built offline in GOPATH mode against Debian's golang-golang-x-mod-dev
# in /usr/share/gocode: no module is downloaded.
GO           ?= go
GO_PATH      ?= /usr/share/gocode
TLOG_INTEROP := $(B)/tests/tlog-interop

MAN_PAGES := $(sort $(wildcard man/man[1357]/*.[1357]))
FORMAT_SRC := $(sort $(wildcard libreplay/*.[ch] libreplay/archive/*.[ch] libreplay/tlog/*.[ch] \
              libreplay/games/*.[ch] libreplay/games/*/*.[ch] \
              tools/*.[ch] tests/*.[ch] tests/fuzz/*.[ch] \
              tests/install/*.[ch] tests/games/*.[ch] tests/games/*/*.[ch]))

# The parts of make check, in the order they run; the Check suites run
# last so that their summary line ends the output.
CHECK_PARTS := symbols lint grammar help-synopsis layout cli pg install-test \
               browser web-test web-table

.PHONY: all deps deps-build pg fresh check check-run unit $(CHECK_PARTS) sanitize valgrind \
        demo demo-run bench bench-run fuzz fuzz-run fuzz-replay install uninstall format format-check clean need-check
.DEFAULT_GOAL := all

all: $(LIB_A) $(LIB_SO) $(B)/libreplay.so $(CAMELOG)

# ---------------------------------------------------------------- build

# Library objects serve both libraries: position-independent, and hidden
# unless marked RPL_API, so the rpl__ helpers shared between library
# files never leave the .so.
$(B)/libreplay/%.o: libreplay/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -fPIC -fvisibility=hidden \
	    -MMD -MP -c $< -o $@

$(PUB_INC)/replay.h: libreplay/replay.h
	@mkdir -p $(@D)
	cp $< $@

$(B)/tools/%.o: tools/%.c $(PUB_INC)/replay.h
	@mkdir -p $(@D)
	$(CC) $(TOOL_CPPFLAGS) $(ALL_CFLAGS) $(TOOL_THREADS) -MMD -MP -c $< -o $@

$(B)/tests/%.o: tests/%.c | need-check
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(CHECK_CFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIB_A): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(LIB_SO): $(LIB_OBJ) libreplay/libreplay.map
	$(CC) -shared -Wl,-soname,libreplay.so.$(SOVERSION) -Wl,-z,defs \
	    -Wl,--version-script=libreplay/libreplay.map \
	    $(ALL_CFLAGS) $(ALL_LDFLAGS) $(LIB_OBJ) $(DEP_LIBS) -o $@

$(B)/libreplay.so: $(LIB_SO)
	ln -sf libreplay.so.$(SOVERSION) $@

$(CAMELOG): $(TOOL_OBJ) $(LIB_A)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(TOOL_THREADS) $(TOOL_OBJ) $(LIB_A) \
	    $(DEP_LIBS) -o $@

$(TESTRUN): $(TEST_OBJ) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(TEST_OBJ) $(LIB_A) $(DEP_LIBS) \
	    $(CHECK_LIBS) -o $@

need-check:
	@$(PKG_CONFIG) --exists $(TEST_PKGS) || { \
	    echo "make: the tests need Check (pkg-config $(TEST_PKGS)):" \
	        "run 'make deps'" >&2; exit 1; }

# ---------------------------------------------------------------- deps

# deps-build: what make and make demo need (deps/build); deps: what make
# check needs on top (deps/test, deps/browser, deps/wasm).  Each installs
# only what dpkg lacks, as root; otherwise it prints the apt-get line to
# run.
deps-build:
	@$(DEPS_SH) build

deps:
	@$(DEPS_SH) build test browser wasm

# ---------------------------------------------------------------- tests

# deps first, then a second make that computes the flags with pkg-config.
check: deps
	@$(MAKE) --no-print-directory check-run

# Every part runs even when an earlier one fails; the failures are named
# before the Check suites run, and the exit status counts them all.
check-run: all $(TESTRUN)
	@failed=; \
	for part in $(CHECK_PARTS); do \
	    echo "== $$part"; \
	    $(MAKE) -s --no-print-directory $$part || failed="$$failed $$part"; \
	done; \
	if [ -n "$$failed" ]; then echo "check: FAILED:$$failed" >&2; fi; \
	echo "== unit"; \
	$(TESTRUN) || failed="$$failed unit"; \
	test -z "$$failed"

# The Check suites (CK_RUN_SUITE=log runs one).
unit: $(TESTRUN)
	$(TESTRUN)

# The shared library exports rpl_* and nothing else (no rpl__ helper),
# under the soname; libreplay(3) documents every function it exports
# (tests/man_api.sh).
symbols: $(LIB_SO)
	@so=$(LIB_SO); \
	soname=$$(objdump -p $$so | awk '$$1 == "SONAME" { print $$2 }'); \
	if [ "$$soname" != libreplay.so.$(SOVERSION) ]; then \
	    echo "symbols: $$so: soname '$$soname'," \
	        "expected libreplay.so.$(SOVERSION)" >&2; exit 1; fi; \
	syms=$$(nm -D --defined-only $$so | awk '{ print $$NF }'); \
	bad=$$(printf '%s\n' "$$syms" | grep -v '^rpl_[a-z0-9]'); \
	if [ -n "$$bad" ]; then \
	    echo "symbols: $$so exports more than the rpl_ API:" $$bad >&2; \
	    exit 1; fi; \
	printf '%s\n' "$$syms" | grep -qx rpl_version || { \
	    echo "symbols: $$so does not export rpl_version" >&2; exit 1; }; \
	echo "symbols: $$(printf '%s\n' "$$syms" | wc -l) rpl_ symbols," \
	    "soname $$soname"
	@bash tests/man_api.sh $(LIB_SO) man/man3/libreplay.3

# The layout rules of CONTRIBUTING.md that a formatter cannot check.
layout: all
	@B=$(B) bash tests/layout.sh

# The grammar displays of the man pages are copies of schema/camelog.abnf.
grammar:
	@bash tests/grammar_sync.sh

# mandoc's lint of every page, then no mdoc macro rendered as a word
# (tests/man_macros.sh).
lint:
	@if [ -z "$(MAN_PAGES)" ]; then echo "lint: no man pages yet"; exit 0; fi
	@mandoc -T lint -W warning $(MAN_PAGES) && \
	    echo "lint: $(words $(MAN_PAGES)) man pages, mandoc -T lint clean"
	@bash tests/man_macros.sh $(MAN_PAGES)

help-synopsis: $(CAMELOG)
	@CAMELOG=$(abspath $(CAMELOG)) bash tests/help_synopsis.sh

cli: $(CAMELOG) $(TEST_BINS) $(TLOG_INTEROP)
	@CAMELOG=$(abspath $(CAMELOG)) CAMELOG_TEST_BIN=$(abspath $(B)/tests) \
	    VALGRIND=$(VALGRIND) bash tests/cli/run.sh

# The archive's CLI tests again, on a PostgreSQL server of their own.
pg: $(CAMELOG) $(TEST_BINS)
	@CAMELOG=$(abspath $(CAMELOG)) CAMELOG_TEST_BIN=$(abspath $(B)/tests) \
	    bash tests/pg.sh

# make install into a temporary DESTDIR, then build and run a program
# outside the tree against it with pkg-config.
install-test: all
	@CC="$(CC)" SAN_FLAGS="$(SAN_FLAGS)" PKG_CONFIG="$(PKG_CONFIG)" \
	    VERSION=$(VERSION) SOVERSION=$(SOVERSION) \
	    MAN_PAGES="$(MAN_PAGES)" bash tests/install/check.sh

# Long property tests read CAMELOG_AVALON_GAMES to shrink under the
# sanitizers' slowdown; Check's per-test timeouts stretch with it.
sanitize: deps
	@ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	CAMELOG_AVALON_GAMES=10000 CAMELOG_SOC_GAMES=2000 CK_TIMEOUT_MULTIPLIER=5 \
	CLI_TIMEOUT=600 \
	    $(MAKE) --no-print-directory check-run B=build-san \
	        SANITIZE=address,undefined

valgrind:
	@$(DEPS_SH) build test valgrind
	@$(MAKE) --no-print-directory cli VALGRIND=1

# ---------------------------------------------------------------- bench

BENCH := $(B)/bench

$(BENCH): bench/bench.c bench/floor.c bench/floor.h $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) -D_DEFAULT_SOURCE $(ALL_CFLAGS) -MMD -MP \
	    bench/bench.c bench/floor.c $(LIB_A) $(DEP_LIBS) -o $@

# The figures of BENCHMARKS.md; BENCH_SCALE=0.1 for a quick look.
bench: deps-build
	@$(DEPS_SH) wasm
	@$(MAKE) --no-print-directory bench-run

# Then what format 2 costs a host (bench/host_cost.py; HOST_COST_V1, a
# camelog that writes format 1, adds its figures beside), then the
# WebAssembly build's figures (web-bench, below).
HOST_COST_GAMES ?= 20
bench-run: all $(BENCH)
	$(BENCH) $(CAMELOG) $(or $(BENCH_SCALE),1)
	python3 bench/host_cost.py $(CAMELOG) $(HOST_COST_GAMES)
	$(if $(HOST_COST_V1),python3 bench/host_cost.py $(HOST_COST_V1) \
	    $(HOST_COST_GAMES) -- --no-fsync)
	$(if $(HOST_COST_V1),python3 bench/host_cost.py $(HOST_COST_V1) \
	    $(HOST_COST_GAMES) --)
	bash bench/archive_pg.sh $(CAMELOG) $(or $(BENCH_SCALE),1)
	@$(MAKE) --no-print-directory web-bench

# ---------------------------------------------------------------- demo

DEMO_SEED := 7c3e9a1f5b2d8c4e6a0f3b7d9e1c5a2f8b4d6e0a3c7f1b9d5e2a8c4f6b0d3e7a

# Each command is printed (with the temporary directory as $tmp) before it
# runs; the first that fails stops the demo and says so.
define DEMO_SCRIPT
set -u
camelog=$(CAMELOG)
tmp=$$(mktemp -d "$${TMPDIR:-/tmp}/camelog-demo.XXXXXX") || exit 2
trap 'rm -rf "$$tmp"' EXIT
echo "+ tmp=$$tmp"
run() {
	line="$$*"
	echo "+ $${line//"$$tmp"/\$$tmp}"
	"$$@" </dev/null
	st=$$?
	if [ "$$st" -ne 0 ]; then
		echo "demo: stopped: '$$camelog $$2' exited with status $$st" >&2
		exit 1
	fi
}
run "$$camelog" keygen -o "$$tmp/dealer"
run "$$camelog" simulate --game avalon --players 7 \
	--roles merlin,percival,servant,servant,assassin,morgana,mordred \
	--lady --seed $(DEMO_SEED) \
	--key "$$tmp/dealer.key" -o "$$tmp/game.camelog"
run "$$camelog" verify --pubkey "$$tmp/dealer.pub" "$$tmp/game.camelog"
run "$$camelog" replay "$$tmp/game.camelog"
run "$$camelog" reveal "$$tmp/game.camelog"
echo "demo: recorded, verified, replayed and revealed one game"
endef

demo: deps-build
	@$(MAKE) --no-print-directory demo-run

demo-run: export DEMO_SH = $(DEMO_SCRIPT)
demo-run: all
	@bash -c "$$DEMO_SH"

# ---------------------------------------------------------------- install

# libreplay.so.$(VERSION) is the file; .so.$(SOVERSION) (the soname) and
# .so (for -lreplay) are links to it.
pc_rel = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig \
	    $(DESTDIR)$(INCLUDEDIR)/libreplay
	install -m 755 $(CAMELOG) $(DESTDIR)$(BINDIR)/camelog
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/libreplay.a
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/libreplay.so.$(VERSION)
	ln -sf libreplay.so.$(VERSION) \
	    $(DESTDIR)$(LIBDIR)/libreplay.so.$(SOVERSION)
	ln -sf libreplay.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libreplay.so
	install -m 644 libreplay/replay.h \
	    $(DESTDIR)$(INCLUDEDIR)/libreplay/replay.h
	sed -e 's|@PREFIX@|$(PREFIX)|' \
	    -e 's|@LIBDIR@|$(call pc_rel,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(call pc_rel,$(INCLUDEDIR))|' \
	    -e 's|@VERSION@|$(VERSION)|' \
	    libreplay/libreplay.pc.in >$(B)/libreplay.pc
	install -m 644 $(B)/libreplay.pc \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/libreplay.pc
	@set -e; for page in $(MAN_PAGES); do \
	    dir=$(DESTDIR)$(MANDIR)/$$(basename $$(dirname $$page)); \
	    echo "install -m 644 $$page $$dir"; \
	    install -d $$dir; install -m 644 $$page $$dir; \
	done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/camelog $(DESTDIR)$(LIBDIR)/libreplay.a \
	    $(DESTDIR)$(LIBDIR)/libreplay.so.$(VERSION) \
	    $(DESTDIR)$(LIBDIR)/libreplay.so.$(SOVERSION) \
	    $(DESTDIR)$(LIBDIR)/libreplay.so \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/libreplay.pc \
	    $(DESTDIR)$(INCLUDEDIR)/libreplay/replay.h \
	    $(patsubst man/%,$(DESTDIR)$(MANDIR)/%,$(MAN_PAGES))
	rmdir $(DESTDIR)$(INCLUDEDIR)/libreplay 2>/dev/null || true

# ---------------------------------------------------------------- misc

format:
	$(CLANG_FORMAT) -i $(FORMAT_SRC)

format-check:
	$(CLANG_FORMAT) --dry-run -Werror $(FORMAT_SRC)

clean:
	rm -rf $(B) build build-san

-include $(BENCH).d $(LIB_OBJ:.o=.d) $(TOOL_OBJ:.o=.d) $(TEST_OBJ:.o=.d) \
    $(TEST_GAME_OBJ:.o=.d) $(B)/tests/registry.d $(B)/tests/games/record.d

# ---------------------------------------------------------------- games

define GAMES_H
{ echo '/* Generated by make from the game folders; do not edit. */'; \
  printf '#define RPL__GAMES'; \
  for g in $(1); do printf ' RPL__GAME(%s)' $$g; done; echo; } >$@.tmp; \
cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
endef

.PHONY: games-list
$(B)/games.h: games-list
	@mkdir -p $(@D)
	@$(call GAMES_H,$(GAMES))

$(B)/tests/games.h: games-list
	@mkdir -p $(@D)
	@$(call GAMES_H,$(GAMES) $(TEST_GAMES))

# The objects that include a generated header, in both builds of the
# library: the libraries' and the fuzz targets' (the archive's, below).
$(B)/libreplay/games/registry.o $(B)/fuzz/libreplay/games/registry.o: $(B)/games.h

# The test build: the games of tests/games/ (one folder each, like those
# of libreplay/games/) join the production ones in a second registry,
# linked with the library's other objects into $(B)/tests/camelog-games
# (the tools) and $(B)/tests/games-record (a seeded recorder of any
# registered game, tests/games/record.c).  libreplay.a, libreplay.so and
# camelog never contain them; tests/cli/door.sh checks it.
$(B)/tests/registry.o: libreplay/games/registry.c $(B)/tests/games.h
	@mkdir -p $(@D)
	$(CC) -iquote $(B)/tests $(ALL_CPPFLAGS) $(ALL_CFLAGS) -fPIC \
	    -fvisibility=hidden -MMD -MP -c $< -o $@

$(B)/tests/games/%.o: tests/games/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -fPIC -fvisibility=hidden \
	    -MMD -MP -c $< -o $@

$(B)/tests/camelog-games: $(TOOL_OBJ) $(TEST_LIB_OBJ)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(TOOL_THREADS) $(TOOL_OBJ) \
	    $(TEST_LIB_OBJ) $(DEP_LIBS) -o $@

$(B)/tests/games-record: $(B)/tests/games/record.o $(TEST_LIB_OBJ)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(B)/tests/games/record.o \
	    $(TEST_LIB_OBJ) $(DEP_LIBS) -o $@

# A dishonest dealer's tools (tests/cli/dishonest.sh): libsodium only.
$(B)/tests/dealer-forge: tests/forge/dealer_forge.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) $< $(DEP_LIBS) -o $@

test-bins: $(TEST_BINS)
.PHONY: test-bins

# (Defined above, before the cli rule that needs it: a prerequisite is
# expanded where its rule is read.)
$(TLOG_INTEROP): tests/tlog_interop/main.go
	@mkdir -p $(@D) $(B)/go-cache
	@test -d $(GO_PATH)/src/golang.org/x/mod/sumdb/tlog || { \
	    echo "make: $(GO_PATH) lacks golang.org/x/mod: run 'make deps'" \
	        "(Debian: golang-go golang-golang-x-mod-dev, in deps/test)" >&2; exit 1; }
	GO111MODULE=off GOPATH=$(GO_PATH) GOPROXY=off GOFLAGS= \
	    GOCACHE=$(abspath $(B))/go-cache $(GO) build -o $@ $<

# ---------------------------------------------------------------- archive

# schema/archive.sql is the only copy of the SQLite archive schema, and
# schema/archive_pg.sql of the PostgreSQL one: each backend includes its
# own as an array of C string literals, one per line (ISO C bounds the
# length of one literal, not of an array).
$(B)/archive_sql.h: schema/archive.sql
	@mkdir -p $(@D)
	{ echo '/* Generated from schema/archive.sql by make; do not edit. */'; \
	  echo 'static const char *const archive_sql[] = {'; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$$/",/' $<; \
	  echo '};'; } >$@.tmp && mv $@.tmp $@

$(B)/archive_pg_sql.h: schema/archive_pg.sql
	@mkdir -p $(@D)
	{ echo '/* Generated from schema/archive_pg.sql by make; do not edit. */'; \
	  echo 'static const char *const archive_pg_sql[] = {'; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$$/",/' $<; \
	  echo '};'; } >$@.tmp && mv $@.tmp $@

$(B)/libreplay/archive/backend_sqlite.o \
$(B)/fuzz/libreplay/archive/backend_sqlite.o: $(B)/archive_sql.h
$(B)/libreplay/archive/backend_pg.o \
$(B)/fuzz/libreplay/archive/backend_pg.o: $(B)/archive_pg_sql.h

# ---------------------------------------------------------------- html

# The pages of camelog html and camelog archive report: the HTML, CSS
# and JS of tools/html/ stay files (to read and lint) and are embedded
# as arrays of lines by tools/html/embed.sh.
HTML_SRC := $(sort $(wildcard tools/html/*.html tools/html/*.css \
            tools/html/*.js))

$(B)/tools/html_assets.c: $(HTML_SRC) tools/html/embed.sh
	@mkdir -p $(@D)
	sh tools/html/embed.sh $(HTML_SRC) >$@.tmp && mv $@.tmp $@

$(B)/tools/html_assets.o: $(B)/tools/html_assets.c
	$(CC) $(TOOL_CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

# Pages of the samples opened from file:// in headless Chromium
# (tests/browser/test_html.py); a browser that cannot be had or started
# fails it (run by hand, without BROWSER_REQUIRED, it skips).  Screenshots go to $(B)/artifacts/.
# Debian's python3-selenium is for Debian's python3.
BROWSER_PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 \
                  || echo python3)

browser: $(CAMELOG)
	@CAMELOG=$(abspath $(CAMELOG)) ARTIFACTS=$(abspath $(B)/artifacts) \
	    BROWSER_REQUIRED=1 $(BROWSER_PYTHON) tests/browser/test_html.py

# ---------------------------------------------------------------- fuzz

# libFuzzer on every parser of untrusted input, one target each in
# tests/fuzz/: fuzz_log (every reader of a log), fuzz_keys (key files),
# fuzz_lenient (pack's hand-written text), fuzz_archive (an archive file
# opened read-only and queried), fuzz_import (another system's records,
# and the delivery forms a seat reads), fuzz_host (the requests of camelog
# host, with its journal and files in a temporary directory), fuzz_tlog
# (the files, checkpoints, proofs and entries of a public log of games).
# Each starts from its committed corpus, tests/fuzz/corpus/<target>/, and
# runs FUZZ_SECONDS; what it adds goes to $(B)/fuzz/corpus/<target>/.
# Needs clang with its runtime (Debian:
# deps/fuzz, which make fuzz installs).  A crash it finds
# goes to tests/data/ with a test.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 20
FUZZ_TARGETS := log keys lenient archive import host tlog
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(B)/fuzz/fuzz_%)
# The largest input each target is given (an archive is SQLite pages).
FUZZ_MAX_LEN_log     := 32768
FUZZ_MAX_LEN_keys    := 1024
FUZZ_MAX_LEN_lenient := 32768
FUZZ_MAX_LEN_archive := 65536
FUZZ_MAX_LEN_import  := 65536
FUZZ_MAX_LEN_host    := 16384
FUZZ_MAX_LEN_tlog    := 16384

# The library is compiled once for every target, instrumented for
# libFuzzer (fuzzer-no-link), ASan and UBSan, into one archive; each
# target links it with -fsanitize=fuzzer.
FUZZ_FLAGS   := -g -O1 -fsanitize=address,undefined -std=c11 \
                -D_POSIX_C_SOURCE=200809L -iquote libreplay -iquote $(B)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(B)/fuzz/%.o)
FUZZ_LIB_A   := $(B)/fuzz/libreplay-fuzz.a

$(B)/fuzz/libreplay/%.o: libreplay/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(DEP_CFLAGS) \
	    -MMD -MP -c $< -o $@

$(FUZZ_LIB_A): $(FUZZ_LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_A)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $(DEP_CFLAGS) $< \
	    $(FUZZ_LIB_A) $(DEP_LIBS) -o $@

# The host's target includes tools/cmd_host.c (its static functions) and
# links the commands' helpers.
FUZZ_HOST_TOOLS := tools/cli.c tools/host_reply.c tools/host_tlog.c
$(B)/fuzz/fuzz_host: tests/fuzz/fuzz_host.c tools/cmd_host.c $(FUZZ_HOST_TOOLS) \
                     $(wildcard tools/*.h) $(FUZZ_LIB_A)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -iquote tools $(DEP_CFLAGS) \
	    $< $(FUZZ_HOST_TOOLS) $(FUZZ_LIB_A) $(DEP_LIBS) -o $@

-include $(FUZZ_LIB_OBJ:.o=.d)

fuzz:
	@$(DEPS_SH) build fuzz
	@$(MAKE) --no-print-directory fuzz-run

# Each target in turn; the summary names the executions of each, and the
# first crash stops the run with its input in $(B)/fuzz/.
fuzz-run: $(FUZZ_BINS)
	@set -e; for t in $(FUZZ_TARGETS); do \
	    mkdir -p $(B)/fuzz/corpus/$$t; \
	    echo "== fuzz_$$t ($(FUZZ_SECONDS) s)"; \
	    $(B)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	        -rss_limit_mb=2048 -print_final_stats=1 \
	        -max_len=$$(case $$t in \
	            log) echo $(FUZZ_MAX_LEN_log);; \
	            keys) echo $(FUZZ_MAX_LEN_keys);; \
	            lenient) echo $(FUZZ_MAX_LEN_lenient);; \
	            archive) echo $(FUZZ_MAX_LEN_archive);; \
	            import) echo $(FUZZ_MAX_LEN_import);; \
	            host) echo $(FUZZ_MAX_LEN_host);; \
	            tlog) echo $(FUZZ_MAX_LEN_tlog);; esac) \
	        -artifact_prefix=$(B)/fuzz/$$t- $(B)/fuzz/corpus/$$t \
	        tests/fuzz/corpus/$$t 2>$(B)/fuzz/$$t.log || { \
	        tail -n 60 $(B)/fuzz/$$t.log >&2; \
	        echo "fuzz: fuzz_$$t failed; the input is in $(B)/fuzz/" >&2; \
	        exit 1; }; \
	    grep -E '^stat::number_of_executed_units|^stat::peak_rss' \
	        $(B)/fuzz/$$t.log | sed 's/^/fuzz_'$$t' /'; \
	done

# Replays the committed corpora and the regression inputs of tests/data/
# through the fuzz targets once (no fuzzing).
fuzz-replay: $(FUZZ_BINS)
	@set -e; for t in $(FUZZ_TARGETS); do \
	    files=$$(ls tests/fuzz/corpus/$$t/* \
	        $$(ls -d tests/data/fuzz/$$t/* 2>/dev/null) 2>/dev/null); \
	    $(B)/fuzz/fuzz_$$t -runs=0 $$files 2>$(B)/fuzz/$$t-replay.log || { \
	        tail -n 60 $(B)/fuzz/$$t-replay.log >&2; exit 1; }; \
	    echo "fuzz_$$t: $$(echo $$files | wc -w) inputs replayed"; \
	done

# ---------------------------------------------------------------- fresh

# The README's two commands in a bare Debian 12 root (deps/fresh.sh):
# debootstrap, then only make, gcc and git, a clone of HEAD, make demo and
# make check.  As root; needs the network to reach a Debian mirror.
fresh:
	@$(DEPS_SH) fresh
	@bash deps/fresh.sh

# ---------------------------------------------------------------- wasm

# make wasm: the library's reading, verifying and seat calls for the
# browser, $(WASM_DIR)/camelog.wasm beside lib/web/camelog.js (the ES
# module over it, camelog-web(7)).  The same sources as libreplay.a but
# the archive (SQLite), compiled by clang's wasm32 target against
# wasi-libc, with zlib, libsodium and jansson built for it from Debian's
# source packages by lib/web/deps.sh.  The packages: deps/wasm.
# One wasm build serves make check and make sanitize: no sanitizer
# reaches it.
WASM_DIR     ?= build/wasm
WASM_CC      ?= clang-14
WASM_SYSROOT ?= /usr
WASM_SYS     := $(WASM_DIR)/sysroot
WASM_SRC     := $(filter-out libreplay/archive/%,$(LIB_SRC)) \
                lib/web/camelog_web.c lib/web/wasi_compat.c
WASM_OBJ     := $(WASM_SRC:%.c=$(WASM_DIR)/obj/%.o)
# -O2: -Oz makes the module 29 KB smaller gzipped (194 KB against 223)
# and verify 1.2 to 1.6 times slower (BENCHMARKS.md).
WASM_OPT     ?= -O2
WASM_FLAGS   := --target=wasm32-wasi --sysroot=$(WASM_SYSROOT) $(WASM_OPT)
# The script rebuilds the three libraries (seconds); the sources it
# fetched once stay in $(WASM_DIR)/src.
WASM_DEPS    := $(WASM_SYS)/done
WASM         := $(WASM_DIR)/camelog.wasm
FORMAT_SRC   += $(sort $(wildcard lib/web/*.[ch]))

.PHONY: wasm wasm-deps web-test web-table web-bench
wasm: $(WASM) $(WASM_DIR)/camelog.js

wasm-deps:
	@$(DEPS_SH) wasm

$(WASM_DEPS): lib/web/deps.sh
	@$(DEPS_SH) wasm
	CC_WASM=$(WASM_CC) WASI_SYSROOT=$(WASM_SYSROOT) WASM_OPT=$(WASM_OPT) \
	    sh lib/web/deps.sh $(WASM_DIR)

$(WASM_DIR)/obj/%.o: %.c $(WASM_DEPS) $(B)/games.h
	@mkdir -p $(@D)
	$(WASM_CC) $(WASM_FLAGS) -std=c11 $(WARNINGS) -Wno-newline-eof -Wno-unused-but-set-variable \
	    -ffunction-sections \
	    -fdata-sections -D_POSIX_C_SOURCE=200809L -iquote libreplay \
	    -iquote $(B) -isystem $(WASM_SYS)/include \
	    -include lib/web/wasi_compat.h -MMD -MP -c $< -o $@

# A reactor (no main): lib/web/camelog.js calls _initialize, then the
# cw_ calls of lib/web/camelog_web.c; whatever they do not reach is
# dropped.
$(WASM): $(WASM_OBJ)
	$(WASM_CC) $(WASM_FLAGS) -mexec-model=reactor -Wl,--gc-sections \
	    -Wl,--strip-all $(WASM_OBJ) -L$(WASM_SYS)/lib -lsodium -ljansson \
	    -lz -o $@

# The package.json beside it says the .js is an ES module, which Node
# before 20.19 (Debian's is 18) does not guess from its syntax.
$(WASM_DIR)/camelog.js: lib/web/camelog.js
	@mkdir -p $(@D)
	cp $< $@
	printf '{"type": "module"}\n' >$(@D)/package.json

-include $(WASM_OBJ:.o=.d)

# make bench's figures of the module: its bytes gzipped, and verify in
# it against camelog verify on the same files (bench/wasm.sh).
web-bench: $(WASM) $(WASM_DIR)/camelog.js $(CAMELOG)
	@CAMELOG=$(abspath $(CAMELOG)) WASM_DIR=$(abspath $(WASM_DIR)) \
	    bash bench/wasm.sh $(or $(BENCH_SCALE),1)

# The WebAssembly verifier against the C one (tests/web/run.sh), and
# the module's seat calls.
web-test: $(WASM) $(WASM_DIR)/camelog.js $(CAMELOG)
	@CAMELOG=$(abspath $(CAMELOG)) WASM_DIR=$(abspath $(WASM_DIR)) \
	    bash tests/web/run.sh

# The example table of examples/web: five headless Chromium seats play
# against camelog host through the bridge, honest and lying
# (tests/web/test_table.py); screenshots in $(B)/artifacts/.
web-table: $(WASM) $(WASM_DIR)/camelog.js $(CAMELOG) $(B)/tests/dealer-forge
	@CAMELOG=$(abspath $(CAMELOG)) WASM_DIR=$(abspath $(WASM_DIR)) \
	    DEALER_FORGE=$(abspath $(B)/tests/dealer-forge) ARTIFACTS=$(abspath $(B)/artifacts) BROWSER_REQUIRED=1 \
	    $(BROWSER_PYTHON) tests/web/test_table.py
