/* hash.h - hashes of tables and of cache files
 *
 * Not the hash of contents (SHA-256, sha256.h).
 */
#ifndef KIC_HASH_H
#define KIC_HASH_H

#include <glib.h>

/* A 64-bit checksum of LENGTH bytes of DATA, as 16 hex digits (transfer
 * full): what tells a cache file cut short or damaged from a whole one
 * (state.c), at memory speed.  Not a defence against a deliberate edit:
 * that needs the right to write root's store, which is the right to
 * write the tree itself (SECURITY.md). */
char *kic_checksum64 (const void *data, gsize length);

/* SipHash-C-D of LENGTH bytes of DATA under the 128-bit KEY: a keyed hash
 * whose collisions cannot be found without the key. */
guint64 kic_siphash (const guint64 key[2], const void *data, gsize length, guint c_rounds, guint d_rounds);

/* A GHashFunc for NUL-terminated strings, for every table keyed by a name
 * or a path.  Not g_str_hash(), which takes a byte a step (the paths here
 * are long, and hashing them is among the rebuild's largest costs), and whose collisions anyone can make: a user
 * who may create files in a directory the run lists could name them so
 * that its tables take quadratic time.  A strongly universal hash of the
 * string's 32-bit words under keys drawn once per process (hash.c;
 * SipHash-1-3 past its first KiB): two different strings collide with
 * probability 2^-32 whatever they are, and no value is ever shown, so no
 * one can choose names that collide.  Nothing a run prints, writes or
 * decides depends on a table's order (the tables are walked sorted where
 * it would), so a run is the same whatever the keys. */
guint kic_str_hash (gconstpointer key);

#endif /* KIC_HASH_H */
