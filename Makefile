# kde-icon-cache - plain Makefile
#
# User CFLAGS/CPPFLAGS/LDFLAGS are respected: the project's own flags go into
# ALL_CFLAGS and friends.  `make check` runs every test through prove (TAP).

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=
CC ?= cc
CXX ?= c++
PKG_CONFIG ?= pkg-config
INSTALL ?= install

VERSION = 0.1

CFLAGS ?= -O2 -g
PKGS = glib-2.0 libxdg-basedir
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS))
WARN_CFLAGS = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -DKIC_VERSION='"$(VERSION)"' $(WARN_CFLAGS) $(PKG_CFLAGS) $(CFLAGS)
ALL_CPPFLAGS = -Isrc $(CPPFLAGS)
ALL_LDFLAGS = $(LDFLAGS)

LIB_SRCS = src/commands.c src/desktop.c src/fsindex.c src/keyfile.c src/paths.c \
           src/resolver.c src/system.c src/theme.c src/util.c
LIB_OBJS = $(LIB_SRCS:.c=.o)
HEADERS = $(wildcard src/*.h)

UNIT_TESTS = $(patsubst %.c,%,$(wildcard tests/unit/test-*.c))

all: kde-icon-cache

src/%.o: src/%.c $(HEADERS)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

src/libkic.a: $(LIB_OBJS)
	$(AR) rcs $@ $(LIB_OBJS)

kde-icon-cache: src/main.o src/libkic.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ src/main.o src/libkic.a $(PKG_LIBS)

tests/unit/test-%: tests/unit/test-%.c src/libkic.a $(HEADERS)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< src/libkic.a $(PKG_LIBS)

-include tests/oracle/oracle.mk

check: kde-icon-cache $(UNIT_TESTS) $(ORACLE_BIN)
	prove -f $(UNIT_TESTS) tests/integration/*.sh

install: kde-icon-cache
	$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8
	$(INSTALL) -m 0755 kde-icon-cache $(DESTDIR)$(SBINDIR)/kde-icon-cache
	$(INSTALL) -m 0644 man/kde-icon-cache.8 $(DESTDIR)$(MANDIR)/man8/kde-icon-cache.8

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/kde-icon-cache $(DESTDIR)$(MANDIR)/man8/kde-icon-cache.8

clean:
	rm -f kde-icon-cache src/*.o src/libkic.a $(UNIT_TESTS) $(ORACLE_BIN)

.PHONY: all check install uninstall clean
