/* version.c - the version, from debian/changelog (see the Makefile): the
 * one object rebuilt when it changes */
#include "version.h"

const char kic_version[] = KIC_VERSION;
