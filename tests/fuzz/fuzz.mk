# tests/fuzz/fuzz.mk - libFuzzer targets; the top-level Makefile includes it
#
#   make fuzz-build          build every target into build-fuzz/
#   make fuzz                run each target for FUZZ_SECONDS (default 60),
#                            FUZZ_JOBS (default 2) at a time, on
#                            build-fuzz/corpus/<target> seeded from
#                            tests/fuzz/seeds/<target>/, then a summary
#   make fuzz-regress        run each target once over
#                            tests/fuzz/regressions/<target>/ and the seeds
#   make fuzz FUZZ_TARGETS=resolver FUZZ_SECONDS=600
#
# The library sources are compiled again here with clang, coverage
# instrumentation and ASan + UBSan, into build-fuzz/obj (never the gcc
# objects of build/).  Needs clang with libFuzzer: on Debian 12 the
# packages clang (14) and libclang-rt-14-dev (libclang_rt.fuzzer*.a).
#
# Paths are relative to the top of the repository.  LIB_SRCS, HEADERS,
# PKG_CFLAGS and PKG_LIBS come from the top-level Makefile; they are worked
# out here when this file is included before them or on its own.

CLANG ?= clang
FUZZ_B ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 2
# extra libFuzzer options for every target, e.g. FUZZ_OPTS=-jobs=1
FUZZ_OPTS ?=
# To fuzz on past a known bug that is not fixed yet (never for
# fuzz-regress): FUZZ_SKIP_KNOWN=huge-ints makes the targets skip such
# inputs (fuzz-common.h), FUZZ_UBSAN_SUPP=FILE suppresses UBSan reports
# (one "check:function" a line).  Both empty by default: every report is
# fatal.
FUZZ_SKIP_KNOWN ?=
FUZZ_UBSAN_SUPP ?=

FUZZ_ALL_TARGETS = desktop gtkcache index-theme keyfile manifest raster resolver
FUZZ_TARGETS ?= $(FUZZ_ALL_TARGETS)

FUZZ_LIB_SRCS = $(or $(LIB_SRCS),$(filter-out src/cli/main.c,$(wildcard src/*/*.c)))
FUZZ_HEADERS = $(or $(HEADERS),$(wildcard src/*/*.h))
FUZZ_PKG_CFLAGS = $(or $(PKG_CFLAGS),$(shell pkg-config --cflags glib-2.0 json-glib-1.0 libxdg-basedir libzstd xpm libpng nettle))
FUZZ_PKG_LIBS = $(or $(PKG_LIBS),$(shell pkg-config --libs glib-2.0 json-glib-1.0 libxdg-basedir libzstd xpm libpng nettle))

FUZZ_SAN = -fsanitize=address,undefined
# the project's warnings (-Wunused-parameter included: a parameter left
# unused on purpose says so with G_GNUC_UNUSED)
FUZZ_WARN_CFLAGS = $(or $(WARN_CFLAGS),-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes)
# (every layer's headers: the targets reach into several layers)
FUZZ_CPPFLAGS = -D_GNU_SOURCE -DKIC_VERSION='"fuzz"' $(patsubst %,-I%,$(sort $(dir $(FUZZ_HEADERS)))) -Itests/fuzz
FUZZ_CFLAGS = -std=c11 -O1 -g -fno-omit-frame-pointer $(FUZZ_WARN_CFLAGS) \
              $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(FUZZ_PKG_CFLAGS)
FUZZ_LIB_OBJS = $(patsubst src/%.c,$(FUZZ_B)/obj/%.o,$(FUZZ_LIB_SRCS))
FUZZ_BINS = $(patsubst %,$(FUZZ_B)/fuzz-%,$(FUZZ_ALL_TARGETS))

fuzz-build: $(FUZZ_BINS)

# clang must be able to link a libFuzzer program; say what to install if not
$(FUZZ_B)/.clang-ok:
	@mkdir -p $(FUZZ_B)
	@printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' \
	  > $(FUZZ_B)/clang-check.c
	@if ! $(CLANG) -fsanitize=fuzzer,address,undefined -o $(FUZZ_B)/clang-check \
	     $(FUZZ_B)/clang-check.c >/dev/null 2>&1; then \
	  echo "fuzz: '$(CLANG)' cannot link with -fsanitize=fuzzer,address,undefined." >&2; \
	  echo "fuzz: on Debian 12: apt-get install clang libclang-rt-14-dev" >&2; \
	  rm -f $(FUZZ_B)/clang-check.c; exit 1; \
	fi
	@rm -f $(FUZZ_B)/clang-check.c $(FUZZ_B)/clang-check
	@touch $@

$(FUZZ_B)/obj/%.o: src/%.c $(FUZZ_HEADERS) | $(FUZZ_B)/.clang-ok
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_B)/libkic-fuzz.a: $(FUZZ_LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(FUZZ_LIB_OBJS)

$(FUZZ_B)/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz-common.h $(FUZZ_B)/libkic-fuzz.a $(FUZZ_HEADERS)
	$(CLANG) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< \
	  $(FUZZ_B)/libkic-fuzz.a $(FUZZ_PKG_LIBS)

fuzz: fuzz-build
	FUZZ_B=$(FUZZ_B) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) \
	FUZZ_OPTS="$(FUZZ_OPTS)" FUZZ_UBSAN_SUPP="$(FUZZ_UBSAN_SUPP)" \
	KIC_FUZZ_SKIP_KNOWN="$(FUZZ_SKIP_KNOWN)" \
	  bash tests/fuzz/run-fuzz.sh fuzz $(FUZZ_TARGETS)

fuzz-regress: fuzz-build
	FUZZ_B=$(FUZZ_B) KIC_FUZZ_SKIP_KNOWN= bash tests/fuzz/run-fuzz.sh regress $(FUZZ_TARGETS)

fuzz-clean:
	rm -rf $(FUZZ_B)

.PHONY: fuzz fuzz-build fuzz-regress fuzz-clean
