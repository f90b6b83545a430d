# kde-icon-cache - plain Makefile
#
# User CFLAGS/CPPFLAGS/LDFLAGS are respected: the project's own flags go into
# ALL_CFLAGS and friends.  Objects go to $(B) so that a sanitizer build can
# live beside the normal one.
#
#   make                 build ./kde-icon-cache
#   make check           unit tests (GTest) and integration tests, through prove,
#                        CHECK_JOBS (default: the number of CPUs) at a time
#   make check-asan      the same under AddressSanitizer + UBSan
#   make bench           KDE's cost against ours on the realistic tree
#   make bench-kf6       the same with KDE Frameworks 6 (tests/oracle/kf6)
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
# json-glib and libXpm are opened when first needed (src/dynlib.h): their
# headers only here, no link
PKGS = glib-2.0 libxdg-basedir libzstd libpng nettle
DYN_PKGS = json-glib-1.0 xpm
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) $(DYN_PKGS))
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS))
WARN_CFLAGS = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
              $(WERROR)
ALL_CFLAGS = -std=c11 $(WARN_CFLAGS) $(PKG_CFLAGS) $(CFLAGS)
ALL_CPPFLAGS = -D_GNU_SOURCE -Isrc $(CPPFLAGS)
# -MMD -MP: each object depends on the headers it includes (build/*.d)
DEP_CFLAGS = -MMD -MP
ALL_LDFLAGS = $(LDFLAGS)

LIB_SRCS = src/commands.c src/commands-rebuild.c src/config.c src/content.c src/content-read.c src/desktop.c src/detect.c src/dpkg.c src/dynlib.c src/fingerprint.c src/fsindex.c src/fsindex-kept.c src/fsindex-read.c src/fsindex-virtual.c src/iconloader.c src/keyfile.c src/manifest.c src/menu.c src/mime-icons.c src/paths.c src/plan.c src/plan-candidates.c src/plan-choose.c src/plan-content.c src/plan-floor.c src/plan-known.c src/plan-memo.c src/plan-proof.c src/plan-sizeset.c src/profile.c src/raster.c src/rcc.c \
           src/report.c src/resolver.c src/resolver-overlay.c src/resolver-names.c src/resolver-price.c src/resolver-scan.c src/safeopen.c src/sha256.c src/source.c src/state.c src/state-changes.c src/state-write.c src/theme.c src/trusted.c src/util.c src/version.c src/writer.c src/writer-fs.c src/writer-links.c src/writer-lock.c src/writer-log.c src/writer-recovery.c src/writer-store.c
LIB_OBJS = $(patsubst src/%.c,$(B)/%.o,$(LIB_SRCS))
UNIT_TESTS = $(patsubst tests/unit/%.c,$(B)/%,$(wildcard tests/unit/test-*.c))
# The slowest first (longest first: prove --timer, loaded machine), so
# that prove -j runs the others beside them and no long one starts last.
SLOW_TESTS = $(addprefix tests/integration/,oracle-wide.sh oracle-rebuild.sh xpm-png.sh incremental.sh \
             oracle-kf6.sh hostile.sh hardening.sh hardening-writer.sh hardening-3.sh oracle-kf6-wrong.sh \
             crash.sh oracle-fixtures.sh probe-model.sh oracle-realistic.sh platform-theme.sh platform-theme-forky.sh)
INTEGRATION_TESTS = $(SLOW_TESTS) \
                    $(filter-out tests/integration/lib.sh $(SLOW_TESTS),$(wildcard tests/integration/*.sh))
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

$(B)/%.o: src/%.c
	@mkdir -p $(B)
	$(CC) $(ALL_CPPFLAGS) $(DEP_CFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# The version is compiled into version.o alone, which is rebuilt when
# debian/changelog changes.
$(B)/version.o: debian/changelog
$(B)/version.o: ALL_CPPFLAGS += -DKIC_VERSION='"$(VERSION)"'

$(B)/libkic.a: $(LIB_OBJS)
	$(AR) rcs $@ $(LIB_OBJS)

$(PROG): $(B)/main.o $(B)/libkic.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(B)/main.o $(B)/libkic.a $(PKG_LIBS)

$(B)/test-%: tests/unit/test-%.c $(B)/libkic.a
	$(CC) $(ALL_CPPFLAGS) $(DEP_CFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(B)/libkic.a $(PKG_LIBS)

-include $(wildcard $(B)/*.d)

# (what the tests need is built CHECK_JOBS at a time, too)
check:
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) $(PROG) $(UNIT_TESTS) $(ORACLE_BIN)
	rm -rf $(B)/oracle-memo
	KIC_BIN=$(abspath $(PROG)) KIC_FIXTURE_CACHE=$(abspath $(B))/fixtures KIC_ORACLE_MEMO=$(abspath $(B))/oracle-memo \
	  prove -f --timer -j$(CHECK_JOBS) $(INTEGRATION_TESTS) $(UNIT_TESTS)
	@if command -v $(CLANG) > /dev/null; then $(MAKE) -j$(CHECK_JOBS) --no-print-directory fuzz-regress; \
	 else echo "fuzz-regress: skipped: no clang (apt-get install clang libclang-rt-14-dev)"; fi

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
	KIC_STRESS=1 KIC_BIN=$(abspath $(PROG)) prove -f tests/integration/crash.sh tests/integration/hostile.sh \
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

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/kde-icon-cache $(DESTDIR)$(MANDIR)/man8/kde-icon-cache.8 \
	  $(DESTDIR)$(SYSTEMDUNITDIR)/kde-icon-cache.service $(DESTDIR)$(SYSTEMDUNITDIR)/kde-icon-cache.timer

clean:
	rm -rf kde-icon-cache build build-asan build-fuzz tests/oracle/kic-oracle tests/oracle/kic-desktop

.PHONY: all check check-asan stress install uninstall clean

# The main job on the bundled demo root, in a copy under $(B): what it
# would do, the rebuild, and what KDE's lookups cost afterwards.
demo: $(PROG)
	rm -rf $(B)/demo && mkdir -p $(B) && cp -R demo $(B)/demo
	./$(PROG) --root $(B)/demo --dry-run
	./$(PROG) --root $(B)/demo --verbose
	./$(PROG) --root $(B)/demo --list

# A FUSE file system that answers like a slow NFS server (make bench-nfs).
$(B)/slowfs: tests/bench/slowfs.c
	@mkdir -p $(B)
	$(CC) $(CFLAGS) -Wall -Wextra $(shell $(PKG_CONFIG) --cflags fuse3) $(LDFLAGS) -o $@ $< \
	  $(shell $(PKG_CONFIG) --libs fuse3)

# Its chart goes to $(B)/nfs.png (a build product, not tracked).
bench-nfs: $(PROG) $(ORACLE_BIN)
	@if $(PKG_CONFIG) --exists fuse3; then $(MAKE) $(B)/slowfs; fi
	KIC_BIN=$(abspath $(PROG)) KIC_SLOWFS=$(abspath $(B)/slowfs) KIC_NFS_CHART=$(abspath $(B))/nfs.png \
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
