/* version.h - the version
 *
 * One object, version.c, is rebuilt when debian/changelog changes (the Makefile).
 */
#ifndef KIC_VERSION_H
#define KIC_VERSION_H



/* "0.2": the top entry of debian/changelog. */
extern const char kic_version[];

#endif /* KIC_VERSION_H */
