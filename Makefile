# kde-icon-cache - plain Makefile
#
# User CFLAGS/CPPFLAGS/LDFLAGS are respected: the project's own flags go into
# ALL_CFLAGS and friends.  Objects go to $(B) so that a sanitizer build can
# live beside the normal one.
#
#   make                 build ./kde-icon-cache
#   make check-unit      the unit tests (GTest) alone: seconds
#   make check-fast      the unit tests and the integration tests that need no
#                        KDE (no KF5/KF6 helper or root, no realistic tree, no
#                        .deb, no network): minutes, before each commit
#   make check           everything: unit tests (GTest) and every integration
#                        test, through prove, CHECK_JOBS (default: the number
#                        of CPUs) at a time
#   make check-asan      the same under AddressSanitizer + UBSan
#   make bench           KDE's cost against ours on the realistic tree
#   make bench-kf6       the same with KDE Frameworks 6 (tests/oracle/kf6)
#   make bench-nfs       who gains: round trips and seconds per setup (NFS, squashfs, home, local)
#   make bench-plasma    Plasma 5.27 and 6.3 themselves, headless, before/after a rebuild (PLASMA=5|6: one)
#   make bench-scale     rebuild, no-op and --check as the tree grows, against gtk-update-icon-cache
#   make bench-rebuild   only the rebuild against gtk-update-icon-cache, on the realistic tree
#   make bench-hostile   a rebuild over trees shaped to make the plan costly (under 10 s each)
#   make install         the program, the man page, /etc/kde-icon-cache.conf (kept
#                        when there is one) and the systemd units: PREFIX, DESTDIR,
#                        SBINDIR, MANDIR, SYSTEMDUNITDIR

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
# systemd looks in /usr/local/lib/systemd/system too; the Debian package
# gives /lib/systemd/system (debian/rules)
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
# flatpak runs $datadir/flatpak/triggers/*.trigger (Debian: /usr/share)
FLATPAKTRIGGERDIR ?= $(PREFIX)/share/flatpak/triggers
DESTDIR ?=
CC ?= cc
CXX ?= c++
PKG_CONFIG ?= pkg-config
INSTALL ?= install

# The one source of the version: the top entry of debian/changelog.
VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
B ?= build
PROG ?= kde-icon-cache

CFLAGS ?= -O2 -g
# CI (which sets CI=true) treats warnings as errors
ifeq ($(CI),true)
WERROR ?= -Werror
endif
PKGS = glib-2.0 json-glib-1.0 libxdg-basedir libzstd libpng nettle xpm
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS))
WARN_CFLAGS = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
              $(WERROR)
ALL_CFLAGS = -std=c11 $(WARN_CFLAGS) $(PKG_CFLAGS) $(CFLAGS)
ALL_CPPFLAGS = -D_GNU_SOURCE $(CPPFLAGS)
# -MMD -MP: each object depends on the headers it includes (build/*.d)
DEP_CFLAGS = -MMD -MP
ALL_LDFLAGS = $(LDFLAGS)

# src/ holds a directory per layer, lowest first.  A layer's code sees the
# headers of its own layer and of those below it, never above, and each
# layer is a static library linked above the ones it calls: an include or
# a call upwards fails the build.  A layer's -private.h headers are for
# its own files (tests/integration/layout.sh).
LAYERS = base formats fs kde plan store writer cli
INC_base = -Isrc/base
INC_formats = $(INC_base) -Isrc/formats
INC_fs = $(INC_formats) -Isrc/fs
INC_kde = $(INC_fs) -Isrc/kde
INC_plan = $(INC_kde) -Isrc/plan
INC_store = $(INC_plan) -Isrc/store
INC_writer = $(INC_store) -Isrc/writer
INC_cli = $(INC_writer) -Isrc/cli
LIB_SRCS = $(filter-out src/cli/main.c,$(foreach l,$(LAYERS),$(sort $(wildcard src/$(l)/*.c))))
LIB_OBJS = $(patsubst src/%.c,$(B)/%.o,$(LIB_SRCS))
HEADERS = $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.h))
# the layers' libraries, highest first, as the linker wants them
LAYER_LIBS = $(foreach l,cli writer store plan kde fs formats base,$(B)/libkic-$(l).a)
UNIT_TESTS = $(patsubst tests/unit/%.c,$(B)/%,$(wildcard tests/unit/test-*.c))
# The slowest first (longest first: prove --timer, loaded machine), so
# that prove -j runs the others beside them and no long one starts last.
SLOW_TESTS = $(addprefix tests/integration/,oracle-wide.sh oracle-wide-flatpak.sh oracle-rebuild.sh xpm-png.sh incremental.sh \
             oracle-kf6.sh hostile.sh hardening.sh hardening-writer.sh hardening-3.sh hardening-4.sh oracle-kf6-wrong.sh oracle-kf6-iconcache.sh \
             crash.sh oracle-fixtures.sh probe-model.sh oracle-realistic.sh platform-theme.sh platform-theme-forky.sh)
INTEGRATION_TESTS = $(SLOW_TESTS) \
                    $(filter-out tests/integration/lib.sh $(SLOW_TESTS),$(wildcard tests/integration/*.sh))
# check-fast's: offline, no KDE (neither helper nor root), no realistic
# tree, no .deb; the slowest first, as above
FAST_TESTS = $(addprefix tests/integration/,hardening-writer.sh hardening-3.sh profiles.sh crash.sh rebuild.sh \
             valgrind.sh cli.sh hardening.sh fingerprint.sh problems.sh readme-figures.sh changelog.sh config.sh \
             admin.sh hardening-2.sh layout.sh)
# How prove runs the scripts: a failing script prints its "not ok" lines
# with their comments, and the command to rerun it alone (lib.sh)
TEST_ENV = KIC_BIN=$(abspath $(PROG)) KIC_FIXTURE_CACHE=$(abspath $(B))/fixtures KIC_ORACLE_MEMO=$(abspath $(B))/oracle-memo
PROVE = prove --timer -j$(CHECK_JOBS)
# Tests run side by side: each works in its own directory, and what they
# share (the fixture cache, the realistic tree) is built under a lock.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)

# libFuzzer targets (clang): make fuzz, make fuzz-regress (tests/fuzz)
-include tests/fuzz/fuzz.mk

# The KF5 oracle helper is built when KF5's headers are there; the tests
# that need it skip themselves otherwise.
.DEFAULT_GOAL := all
ORACLE_BIN :=
-include tests/oracle/oracle.mk
ifeq ($(wildcard /usr/include/KF5/KIconThemes/kiconloader.h),)
ORACLE_BIN :=
endif

all: $(PROG)

# (the layer is the first directory of the stem: kde/theme)
$(B)/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(INC_$(firstword $(subst /, ,$*))) $(ALL_CPPFLAGS) $(DEP_CFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# The version is compiled into version.o alone, which is rebuilt when
# debian/changelog changes.
$(B)/base/version.o: debian/changelog
$(B)/base/version.o: ALL_CPPFLAGS += -DKIC_VERSION='"$(VERSION)"'

define layer_library
$(B)/libkic-$(1).a: $(filter $(B)/$(1)/%,$(LIB_OBJS))
	rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call layer_library,$(l))))

$(PROG): $(B)/cli/main.o $(LAYER_LIBS)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(B)/cli/main.o $(LAYER_LIBS) $(PKG_LIBS)

# the unit tests see every layer's public headers
$(B)/test-%: tests/unit/test-%.c $(LAYER_LIBS)
	$(CC) $(INC_cli) $(ALL_CPPFLAGS) $(DEP_CFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LAYER_LIBS) $(PKG_LIBS)

-include $(wildcard $(B)/*.d $(B)/*/*.d)

# (what the tests need is built CHECK_JOBS at a time, too)
check:
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) $(PROG) $(UNIT_TESTS) $(ORACLE_BIN)
	rm -rf $(B)/oracle-memo
	$(TEST_ENV) $(PROVE) $(INTEGRATION_TESTS) $(UNIT_TESTS)
	@if command -v $(CLANG) > /dev/null; then $(MAKE) -j$(CHECK_JOBS) --no-print-directory fuzz-regress; \
	 else echo "fuzz-regress: skipped: no clang (apt-get install clang libclang-rt-14-dev)"; fi

check-unit:
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) $(UNIT_TESTS)
	$(PROVE) $(UNIT_TESTS)

check-fast:
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) $(PROG) $(UNIT_TESTS)
	$(TEST_ENV) $(PROVE) $(FAST_TESTS) $(UNIT_TESTS)

SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
check-asan:
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 KIC_REBUILD_THEMES=breeze \
	$(MAKE) B=build-asan PROG=build-asan/kde-icon-cache CFLAGS="$(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" check

# The long sweeps: a kill at every disk-changing call of a rebuild,
# checked by KF5 itself; the hostile trees; every XPM twin of the corpus
# rendered by KF5 at every size 8-256; 300 random changes, each rebuild
# that keeps the last plan checked against a full plan, on the fixture
# and on the realistic tree.
stress: $(PROG) $(ORACLE_BIN)
	KIC_STRESS=1 KIC_BIN=$(abspath $(PROG)) prove tests/integration/crash.sh tests/integration/hostile.sh \
	  tests/integration/xpm-png.sh tests/integration/incremental.sh

# The configuration file is read at /etc/kde-icon-cache.conf whatever the
# PREFIX; an admin's copy already there is never replaced (nor removed by
# uninstall).  The units are the Debian package's (debian/), their
# ExecStart pointed at SBINDIR.  The timer is not enabled:
# systemctl enable --now kde-icon-cache.timer
install: $(PROG)
	$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)/etc $(DESTDIR)$(SYSTEMDUNITDIR)
	$(INSTALL) -m 0755 $(PROG) $(DESTDIR)$(SBINDIR)/kde-icon-cache
	$(INSTALL) -m 0644 man/kde-icon-cache.8 $(DESTDIR)$(MANDIR)/man8/kde-icon-cache.8
	test -e $(DESTDIR)/etc/kde-icon-cache.conf || \
	  $(INSTALL) -m 0644 etc/kde-icon-cache.conf $(DESTDIR)/etc/kde-icon-cache.conf
	sed 's|/usr/sbin/kde-icon-cache|$(SBINDIR)/kde-icon-cache|g' debian/kde-icon-cache.service > $(B)/kde-icon-cache.service
	$(INSTALL) -m 0644 $(B)/kde-icon-cache.service $(DESTDIR)$(SYSTEMDUNITDIR)/kde-icon-cache.service
	$(INSTALL) -m 0644 debian/kde-icon-cache.timer $(DESTDIR)$(SYSTEMDUNITDIR)/kde-icon-cache.timer
	$(INSTALL) -d $(DESTDIR)$(FLATPAKTRIGGERDIR)
	sed 's|^kic=/usr/sbin/kde-icon-cache|kic=$(SBINDIR)/kde-icon-cache|' flatpak/kde-icon-cache.trigger > $(B)/kde-icon-cache.trigger
	$(INSTALL) -m 0755 $(B)/kde-icon-cache.trigger $(DESTDIR)$(FLATPAKTRIGGERDIR)/kde-icon-cache.trigger

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/kde-icon-cache $(DESTDIR)$(MANDIR)/man8/kde-icon-cache.8 \
	  $(DESTDIR)$(SYSTEMDUNITDIR)/kde-icon-cache.service $(DESTDIR)$(SYSTEMDUNITDIR)/kde-icon-cache.timer \
	  $(DESTDIR)$(FLATPAKTRIGGERDIR)/kde-icon-cache.trigger

clean:
	rm -rf kde-icon-cache build build-asan build-fuzz tests/oracle/kic-oracle tests/oracle/kic-desktop

.PHONY: all check check-unit check-fast check-asan stress install uninstall clean

# The main job on the bundled demo root, in a copy under $(B): what it
# would do, the rebuild, and what KDE's lookups cost afterwards.
demo: $(PROG)
	rm -rf $(B)/demo && mkdir -p $(B) && cp -R demo $(B)/demo
	./$(PROG) --root $(B)/demo --dry-run
	./$(PROG) --root $(B)/demo --verbose
	./$(PROG) --root $(B)/demo --list

# A FUSE file system that answers like a slow NFS server, or logs the
# reads of a squashfs image looped from it (make bench-nfs).
$(B)/slowfs: tests/bench/slowfs.c
	@mkdir -p $(B)
	$(CC) $(CFLAGS) -Wall -Wextra $(shell $(PKG_CONFIG) --cflags fuse3) $(LDFLAGS) -o $@ $< \
	  $(shell $(PKG_CONFIG) --libs fuse3)

# Who gains, per setup: /usr on NFS (with and without the client's
# negative-lookup cache), a squashfs image, the home on NFS, a local disk;
# round trips and seconds before and after a rebuild (root; squashfs-tools).
bench-nfs: $(PROG) $(ORACLE_BIN)
	@if $(PKG_CONFIG) --exists fuse3; then $(MAKE) $(B)/slowfs; fi
	KIC_BIN=$(abspath $(PROG)) KIC_SLOWFS=$(abspath $(B)/slowfs) \
	  sh tests/bench/save.sh bench-nfs sh tests/bench/bench-nfs.sh

# Can a raster icon wrapped in an SVG be planted in breeze without
# changing a pixel?  Measured with KF5 on every raster menu icon.
bench-wrap: $(PROG) $(ORACLE_BIN)
	$(MAKE) -C tests/wrap
	KIC_BIN=$(abspath $(PROG)) bash tests/wrap/experiment.sh $(KIC_TREE)

bench: $(PROG) $(ORACLE_BIN)
	KIC_BIN=$(abspath $(PROG)) sh tests/bench/save.sh bench sh tests/bench/bench.sh

# The same for KDE Frameworks 6 (needs tests/oracle/kf6/make-root.sh's root).
bench-kf6: $(PROG)
	KIC_BIN=$(abspath $(PROG)) sh tests/bench/save.sh bench-kf6 sh tests/bench/bench-kf6.sh

# Plasma itself under Xvfb and strace (needs root; makes and caches a
# Debian root with Plasma, tests/bench/plasma/make-root.sh): both shells,
# Plasma 5.27 (Debian 12) then Plasma 6.3 (Debian 13); PLASMA=5 or
# PLASMA=6 runs one.
PLASMA ?= 5 6
bench-plasma: $(PROG)
	for v in $(PLASMA); do \
	  KIC_PLASMA_VERSION=$$v KIC_BIN=$(abspath $(PROG)) sh tests/bench/save.sh bench-plasma-$$v sh tests/bench/plasma/bench-plasma.sh || exit 1; \
	done

# The rebuild on trees the size of a school server: every icon theme of
# Debian 12, then 3x the applications (root: overlay mounts; the network
# on the first run).  Chart: $(B)/scale.png.
bench-scale: $(PROG)
	@mkdir -p $(B)
	KIC_BIN=$(abspath $(PROG)) KIC_SCALE_CHART=$(abspath $(B))/scale.png sh tests/bench/save.sh bench-scale sh tests/bench/bench-scale.sh

# Only the rebuild against gtk-update-icon-cache on the realistic tree
# (the row of make bench and make bench-scale, KIC_BENCH_RUNS runs).
bench-rebuild: $(PROG)
	KIC_BIN=$(abspath $(PROG)) sh tests/bench/save.sh bench-rebuild sh tests/bench/bench-rebuild.sh

# Trees shaped to make the plan costly (issue 19): 100 000 theme
# directories, 100 000 icons in 10 000 directories; each under 10 s.
bench-hostile: $(PROG)
	KIC_BIN=$(abspath $(PROG)) sh tests/bench/save.sh bench-hostile sh tests/bench/bench-hostile.sh

.PHONY: bench bench-hostile bench-kf6 bench-nfs bench-plasma bench-rebuild bench-scale bench-wrap demo

# The Debian package: dpkg-buildpackage, lintian, then dpkg install, triggers,
# remove and purge in throwaway Debian 12 and 13 roots, and the real service
# booted under systemd in each (as root; the network on the first run only).
# See tests/deb/check-deb.sh.
check-deb:
	sh tests/deb/check-deb.sh

.PHONY: check-deb
