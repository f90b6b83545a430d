/* elfread.h - what an ELF shared object says of itself: the libraries it
 * needs and where its sections lie (glibc's <elf.h>; 32 or 64 bit, either
 * byte order)
 *
 * Pure: it reads the bytes it is given, never a file.
 */
#ifndef KIC_ELFREAD_H
#define KIC_ELFREAD_H

#include <glib.h>

/* The DT_NEEDED entries of the ELF shared object DATA; NULL when it is not
 * one.  transfer full */
char **kic_elf_needed (const char *data, gsize length);

/* Where section NAME of the ELF object DATA lies in it; FALSE when it has
 * none or it does not lie inside DATA. */
gboolean kic_elf_section (const char *data, gsize length, const char *name, gsize *offset, gsize *size);

#endif /* KIC_ELFREAD_H */
