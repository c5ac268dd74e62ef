# camelog - one GNU Makefile: build, test, install, demo.
# Plain variables; packagers may override any of them (make WERROR= ...).

PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
PKG_CONFIG ?= pkg-config
CC         ?= cc

SOVERSION  := 0
VERSION    := 0.1.0

WERROR     ?= -Werror
WARNINGS   := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
              -Wmissing-prototypes -Wformat=2 -Wvla -Wwrite-strings \
              -Wcast-qual -Wswitch-enum $(WERROR)
CFLAGS     ?= -O2 -g
CPPFLAGS   ?=
LDFLAGS    ?=
SANITIZE   ?=

DEPS_PKGS  := sqlite3 zlib libsodium jansson
B          := build

ifneq ($(filter-out deps clean format help,$(or $(MAKECMDGOALS),all)),)
DEP_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(DEPS_PKGS) 2>/dev/null)
DEP_LIBS   := $(shell $(PKG_CONFIG) --libs $(DEPS_PKGS) 2>/dev/null)
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS := $(shell $(PKG_CONFIG) --libs check 2>/dev/null)
endif

ALL_CFLAGS := -std=c11 $(WARNINGS) $(CFLAGS) \
              $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer)
ALL_CPPFLAGS := -D_POSIX_C_SOURCE=200809L -Ilibreplay -I$(B) $(CPPFLAGS) \
                $(DEP_CFLAGS)
ALL_LDFLAGS := $(LDFLAGS) $(if $(SANITIZE),-fsanitize=$(SANITIZE))

LIB_SRC  := $(sort $(wildcard libreplay/*.c libreplay/soc/*.c))
TOOL_SRC := $(sort $(wildcard tools/*.c))
TEST_SRC := $(sort $(wildcard tests/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/%.o)
TOOL_OBJ := $(TOOL_SRC:%.c=$(B)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(B)/%.o)

LIB_A    := $(B)/libreplay.a
LIB_SO   := $(B)/libreplay.so.$(SOVERSION)
CAMELOG  := $(B)/camelog
TESTRUN  := $(B)/tests/run

MAN_PAGES := $(sort $(wildcard man/man*/*.[1-9]))

.PHONY: all check deps demo install uninstall sanitize valgrind format \
        format-check clean unit cli lint help-synopsis install-test bench
.DEFAULT_GOAL := all

all: $(LIB_A) $(LIB_SO) $(B)/libreplay.so $(CAMELOG)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(LIB_A): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(LIB_SO): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libreplay.so.$(SOVERSION) \
	    -Wl,--version-script=libreplay/libreplay.map \
	    $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ $(DEP_LIBS) -o $@

$(B)/libreplay.so: $(LIB_SO)
	ln -sf libreplay.so.$(SOVERSION) $@

$(CAMELOG): $(TOOL_OBJ) $(LIB_A)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(TOOL_OBJ) $(LIB_A) $(DEP_LIBS) -o $@

$(TESTRUN): $(TEST_OBJ) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(TEST_OBJ) $(LIB_A) $(DEP_LIBS) \
	    $(CHECK_LIBS) -o $@

$(B)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(CHECK_CFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# Unit tests: every Check suite in one runner (CK_RUN_SUITE=log picks one).
unit: $(TESTRUN)
	$(TESTRUN)

check: deps all unit

clean:
	rm -rf $(B)

-include $(LIB_OBJ:.o=.d) $(TOOL_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
